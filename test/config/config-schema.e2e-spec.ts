import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../../src/modules/config/pipeline/load-config';
import { buildConfigJsonSchema } from '../../src/modules/config/schema/export-schema';

/**
 * The schema is defined once in code and exported to schemas/openclaw.schema.json; editors use the
 * committed file, so it must never drift from what the runtime validator enforces.
 * See docs/configuration.md#schema.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const SCHEMA_FILE = path.join(ROOT, 'schemas', 'openclaw.schema.json');
const DEMO_CONFIG = path.join(ROOT, 'config', 'openclaw.json');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every object node with its JSON pointer, depth first. */
function* walk(node: Json, pointer = '#'): Generator<[string, { [key: string]: Json }]> {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) yield* walk(node[i], `${pointer}/${i}`);
  } else if (node && typeof node === 'object') {
    yield [pointer, node];
    for (const [key, child] of Object.entries(node)) yield* walk(child, `${pointer}/${key}`);
  }
}

describe('schemas/openclaw.schema.json', () => {
  let committedText: string;
  let committed: Json;
  beforeAll(async () => {
    committedText = await fs.readFile(SCHEMA_FILE, 'utf8');
    committed = JSON.parse(committedText) as Json;
  });

  it('is exactly what the schema classes generate', () => {
    // Same serialization as `npm run schema`, so a stale file and a hand-edited one both fail.
    const generated = `${JSON.stringify(buildConfigJsonSchema(), null, 2)}\n`;
    if (generated !== committedText) {
      throw new Error('schemas/openclaw.schema.json is out of date with the schema classes: run `npm run schema` and commit the result');
    }
  });

  it('closes every object: additionalProperties is false, or a typed map value schema, never open', () => {
    const objects = [...walk(committed)].filter(([, node]) => node.type === 'object' || 'properties' in node);
    // Sanity: the walk saw the root and the definitions, so an empty result cannot pass by accident.
    expect(objects.length).toBeGreaterThan(30);
    const open: string[] = [];
    // A plugin's config is shaped by its manifest's configSchema: open here, filled in by the schema composed
    // with the plugins found (`clawgate config schema`, docs/plugins.md).
    const pluginOwned = new Set(['#/definitions/PluginEntryConfig/properties/config']);
    for (const [pointer, node] of objects) {
      if (pluginOwned.has(pointer)) continue;
      const extra = node.additionalProperties;
      if ('properties' in node) {
        if (extra !== false) open.push(`${pointer}: has properties but additionalProperties is ${JSON.stringify(extra)}`);
      } else if (!extra || typeof extra !== 'object' || Array.isArray(extra) || Object.keys(extra).length === 0) {
        // A map ({ <name>: Entry }) must say what its values are; `{}` or `true` would accept anything.
        open.push(`${pointer}: map without a value schema (${JSON.stringify(extra)})`);
      }
    }
    expect(open).toEqual([]);
  });

  it('has a definition for every $ref and documents $include on closed objects', () => {
    const definitions = (committed as { definitions: Record<string, Json> }).definitions;
    const refs = [...walk(committed)].map(([, n]) => n.$ref).filter((r): r is string => typeof r === 'string');
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) expect(Object.keys(definitions)).toContain(ref.replace('#/definitions/', ''));
    // $include is resolved before validation, so the editor schema must not flag it as unknown.
    expect(Object.keys((definitions.AgentsConfig as { properties: object }).properties)).toContain('$include');
  });

  it('restricts peer names with the same pattern the runtime uses', () => {
    const a2a = (committed as { definitions: Record<string, { properties: Record<string, { propertyNames?: { pattern: string } }> }> })
      .definitions.A2aChannelConfig;
    expect(a2a.properties.peers.propertyNames?.pattern).toBe('^[a-z0-9][a-z0-9._-]{0,63}$');
  });
});

describe('config/openclaw.json (the bundled demo config)', () => {
  it('starts with "$schema": "../schemas/openclaw.schema.json", which points at the committed schema', async () => {
    const text = await fs.readFile(DEMO_CONFIG, 'utf8');
    expect(text).toMatch(/^\{\s*"\$schema": "\.\.\/schemas\/openclaw\.schema\.json",/);
    await expect(fs.access(path.resolve(path.dirname(DEMO_CONFIG), '../schemas/openclaw.schema.json'))).resolves.toBeUndefined();
  });

  it('loads with the demo variables unset: warnings only, naming each variable', async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-demo-'));
    try {
      const result = await loadConfig({ configPath: DEMO_CONFIG, stateDir: path.join(tmp, 'state'), homeDir: tmp, env: {} });
      if (!result.ok) throw new Error(`demo config rejected: ${JSON.stringify(result.errors)}`);
      const text = result.warnings.map((w) => `${w.path}: ${w.message}`).join('\n');
      expect(text).toContain('channels.a2a.peers.demo.token: environment variable CLAWGATE_DEMO_PEER_TOKEN is not set');
      expect(text).toContain('channels.http.accounts.demo.token: environment variable CLAWGATE_DEMO_HTTP_TOKEN is not set');
      expect(result.snapshot.config.channels.a2a.peers.demo.usable).toBe(false);
      // It runs offline: every agent uses the echo provider, so no missing-key warnings.
      expect(result.snapshot.config.agents.every((a) => a.model.startsWith('echo/'))).toBe(true);
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  });

  it('loads without any warning when npm start supplies the demo tokens', async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-demo-'));
    try {
      const env = { CLAWGATE_DEMO_PEER_TOKEN: 'p', CLAWGATE_DEMO_HTTP_TOKEN: 'h' };
      const result = await loadConfig({ configPath: DEMO_CONFIG, stateDir: path.join(tmp, 'state'), homeDir: tmp, env });
      expect(result.ok).toBe(true);
      expect(result.warnings).toEqual([]);
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  });
});
