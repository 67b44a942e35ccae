import fc from 'fast-check';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { normalizeAgentId } from '../../../common/agent-id';
import { isPlainObject } from '../../../common/is-record';
import { hostileDocument, hostileText, jsonText, validConfig } from '../../../../test/support/config-arbitraries';
import { propertyParameters, propertyTimeout } from '../../../../test/support/property-runs';
import type { LoadResult, RuntimeSnapshot } from '../config.types';
import { loadConfig } from './load-config';
import { nestingIssue } from './nesting-limit';
import { reservedKeyIssues } from './reserved-keys';

/**
 * Properties of the whole pipeline on real files: whatever a file holds, loading it answers (accepted, or
 * rejected with issues that each name a path and say what is wrong) and never throws. Runs are seeded and
 * bounded; see test/support/property-runs.ts for a long run.
 */
describe('loadConfig (properties)', () => {
  let dir: string;
  let configPath: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-load-prop-'));
    configPath = path.join(dir, 'openclaw.json');
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  const fromFile = async (text: string): Promise<LoadResult> => {
    await fs.writeFile(configPath, text);
    return loadConfig({ configPath, stateDir: path.join(dir, 'state'), homeDir: dir, env: {} });
  };
  const fromText = (rootText: string): Promise<LoadResult> =>
    loadConfig({ configPath, stateDir: path.join(dir, 'state'), homeDir: dir, env: {}, rootText });

  /** The answer every load must give: a snapshot, or at least one issue, each with a path and a message. */
  function expectAnswer(result: LoadResult): void {
    if (result.ok) {
      expect(result.snapshot.revision).toMatch(/^[0-9a-f]{12}$/);
      return;
    }
    expect(result.errors.length).toBeGreaterThan(0);
    for (const issue of result.errors) {
      expect(typeof issue.path).toBe('string');
      expect(typeof issue.message).toBe('string');
      expect(issue.message).not.toBe('');
    }
  }

  /** Every name written in a map of the document is in the loaded config: nothing vanished on the way. */
  function expectNamesKept(doc: unknown, s: RuntimeSnapshot): void {
    const at = (...segs: string[]): Record<string, unknown> => {
      let node: unknown = doc;
      for (const seg of segs) node = isPlainObject(node) && Object.hasOwn(node, seg) ? node[seg] : undefined;
      return isPlainObject(node) ? node : {};
    };
    const { config } = s;
    expect(Object.keys(config.channels.a2a.peers)).toEqual(expect.arrayContaining(Object.keys(at('channels', 'a2a', 'peers'))));
    expect(Object.keys(config.channels.http.accounts)).toEqual(expect.arrayContaining(Object.keys(at('channels', 'http', 'accounts'))));
    expect(Object.keys(config.models.providers)).toEqual(expect.arrayContaining(Object.keys(at('models', 'providers'))));
    for (const [name, provider] of Object.entries(at('models', 'providers'))) {
      const headers = isPlainObject(provider) && isPlainObject(provider.headers) ? provider.headers : {};
      expect(Object.keys(config.models.providers[name].headers)).toEqual(Object.keys(headers));
    }
    expect(config.agents.map((a) => a.id)).toEqual(expect.arrayContaining(Object.keys(at('agents', 'entries')).map(normalizeAgentId)));
    expect(Object.keys(config.gateway.admin.sso.roleMapping)).toEqual(Object.keys(at('gateway', 'admin', 'sso', 'roleMapping')));
  }

  it(
    'accepts every generated valid config, whatever its names, and keeps every map entry',
    async () => {
      await fc.assert(
        fc.asyncProperty(validConfig, async (doc) => {
          const result = await fromFile(jsonText(doc));
          if (!result.ok) throw new Error(`rejected: ${JSON.stringify(result.errors)}`);
          expectNamesKept(doc, result.snapshot);
        }),
        propertyParameters(100),
      );
    },
    propertyTimeout(100, 20),
  );

  it(
    'answers every document, never throws; an accepted one has no reserved key, no excess nesting and lost no name',
    async () => {
      await fc.assert(
        fc.asyncProperty(hostileDocument, async (doc) => {
          const result = await fromFile(jsonText(doc));
          expectAnswer(result);
          if (result.ok) {
            expect(reservedKeyIssues(doc)).toEqual([]);
            expect(nestingIssue(doc)).toBeUndefined();
            expectNamesKept(doc, result.snapshot);
          }
        }),
        propertyParameters(),
      );
    },
    propertyTimeout(200, 40),
  );

  it(
    'answers every text given as the root file (POST /admin/config/validate), never throws',
    async () => {
      await fc.assert(
        fc.asyncProperty(hostileText, async (text) => expectAnswer(await fromText(text))),
        propertyParameters(),
      );
    },
    propertyTimeout(200, 10),
  );
});
