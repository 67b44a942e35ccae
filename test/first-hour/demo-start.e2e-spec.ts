import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../../src/modules/config/pipeline/load-config';

/**
 * `npm start` (scripts/demo-gateway.js) runs the demo on a copy of the template config/openclaw.json in its state
 * dir, so the README's tour edits the user's file and never the tracked one the tests read.
 */

interface DemoGateway {
  root: string;
  demoPaths(env: NodeJS.ProcessEnv): { stateDir: string; configPath: string };
  prepareDemoConfig(paths: { stateDir: string; configPath: string }, env: NodeJS.ProcessEnv): boolean;
  demoEnv(): NodeJS.ProcessEnv;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const demo = require('../../scripts/demo-gateway.js') as DemoGateway;
const TEMPLATE = path.join(demo.root, 'config', 'openclaw.json');

describe('the npm start demo config', () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-demo-start-'));
  });
  afterEach(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('is data/openclaw.json in the state dir ./data by default, where OPENCLAW_STATE_DIR alone points the CLI', () => {
    expect(demo.demoPaths({})).toEqual({
      stateDir: path.join(demo.root, 'data'),
      configPath: path.join(demo.root, 'data', 'openclaw.json'),
    });
    const stateDir = path.join(tmp, 'state');
    expect(demo.demoPaths({ OPENCLAW_STATE_DIR: stateDir })).toEqual({ stateDir, configPath: path.join(stateDir, 'openclaw.json') });
  });

  it('copies the template at the first start, keeps the template as it is and later edits of the copy', async () => {
    const template = await fs.readFile(TEMPLATE, 'utf8');
    const env = { OPENCLAW_STATE_DIR: path.join(tmp, 'a', 'state') };
    const paths = demo.demoPaths(env);
    expect(demo.prepareDemoConfig(paths, env)).toBe(true);
    const copy = await fs.readFile(paths.configPath, 'utf8');
    // The same config, its $schema now relative to the copy and still naming the committed schema.
    const schemaRef = /^\{\s*"\$schema": "([^"]+)",/.exec(copy)?.[1];
    expect(path.resolve(path.dirname(paths.configPath), schemaRef!)).toBe(path.join(demo.root, 'schemas', 'openclaw.schema.json'));
    expect(copy.replace(schemaRef!, '../schemas/openclaw.schema.json')).toBe(template);

    // The tour edits the copy; the next start keeps the edit, and the template never changed.
    await fs.writeFile(paths.configPath, copy.replace('"Support desk"', '"Help desk"'));
    expect(demo.prepareDemoConfig(paths, env)).toBe(false);
    expect(await fs.readFile(paths.configPath, 'utf8')).toContain('"Help desk"');
    expect(await fs.readFile(TEMPLATE, 'utf8')).toBe(template);
  });

  it('never creates a config the caller named in OPENCLAW_CONFIG_PATH', async () => {
    const env = { OPENCLAW_STATE_DIR: path.join(tmp, 'state'), OPENCLAW_CONFIG_PATH: path.join(tmp, 'typo.json5') };
    const paths = demo.demoPaths(env);
    expect(paths.configPath).toBe(env.OPENCLAW_CONFIG_PATH);
    expect(demo.prepareDemoConfig(paths, env)).toBe(false);
    await expect(fs.access(env.OPENCLAW_CONFIG_PATH)).rejects.toThrow();
  });

  it('loads the copy with the demo environment without a warning', async () => {
    const env = { OPENCLAW_STATE_DIR: path.join(tmp, 'state') };
    const paths = demo.demoPaths(env);
    demo.prepareDemoConfig(paths, env);
    const demoEnv = demo.demoEnv();
    const result = await loadConfig({ ...paths, homeDir: tmp, env: { ...demoEnv, HOME: tmp } });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.warnings).toEqual([]);
    expect(demoEnv).toMatchObject({ CLAWGATE_DEMO_OPENAI_KEY: expect.any(String) });
  });
});
