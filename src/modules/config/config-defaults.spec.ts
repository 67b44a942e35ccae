import { type JsonSchema, walkSchemaProperties } from '../../../test/support/config-reference';
import { snapshotFrom } from '../../../test/support/config-snapshot';
import { isRecord } from '../../common/is-record';
import { configDefaultsByKey } from './config-default-keys';
import { CONFIG_DEFAULTS } from './config-defaults';
import { buildConfigJsonSchema } from './schema/export-schema';


/** Every object and array reachable from `value`, with where it was found. */
function* containers(value: unknown, at = 'CONFIG_DEFAULTS'): Generator<[string, object]> {
  if (typeof value !== 'object' || value === null) return;
  yield [at, value];
  for (const [key, child] of Object.entries(value)) yield* containers(child, `${at}.${key}`);
}

/**
 * The `default` of every property of the generated schema, by key path in the notation of the docs
 * (`agents.list[].sandbox.mode`, `models.providers.<name>.timeoutMs`).
 */
function schemaDefaultsByKey(schema: JsonSchema): Map<string, unknown> {
  const out = new Map<string, unknown>();
  walkSchemaProperties(schema, (keyPath, property) => {
    if ('default' in property) out.set(keyPath, property.default);
  });
  return out;
}

describe('CONFIG_DEFAULTS', () => {
  it('is frozen all the way down', () => {
    const thawed = [...containers(CONFIG_DEFAULTS)].filter(([, v]) => !Object.isFrozen(v)).map(([at]) => at);
    expect(thawed).toEqual([]);
  });

  it('places each default at the keys it applies to', () => {
    const byKey = configDefaultsByKey();
    expect(byKey.get('gateway.port')).toBe(18789);
    expect(byKey.get('agents.defaults.sandbox.mode')).toBe('off');
    // An agent's own field falls back to agents.defaults, in both ways of writing agents.
    expect(byKey.get('agents.list[].sandbox.mode')).toBe('off');
    expect(byKey.get('agents.entries.<name>.tools.allow')).toEqual([]);
    expect(byKey.get('agents.entries.<name>.default')).toBe(false);
    expect(byKey.get('agents.list[].memorySearch.qmd.extraCollections[].pattern')).toBe('**/*.md');
    expect(byKey.get('memory.qmd.paths[].pattern')).toBe('**/*.md');
    expect(byKey.get('models.providers.<name>.timeoutMs')).toBe(120000);
    expect([...byKey.keys()].filter((k) => k.startsWith('each.'))).toEqual([]);
  });
});

describe('the exported JSON Schema', () => {
  const inSchema = schemaDefaultsByKey(buildConfigJsonSchema());
  const inCode = configDefaultsByKey();

  it('has the default of CONFIG_DEFAULTS on every key that has one', () => {
    const problems = [...inCode].flatMap(([key, value]) => {
      if (!inSchema.has(key)) return [`${key}: no default in the schema (CONFIG_DEFAULTS has ${JSON.stringify(value)})`];
      const stated = inSchema.get(key);
      return JSON.stringify(stated) === JSON.stringify(value)
        ? []
        : [`${key}: the schema says ${JSON.stringify(stated)}, CONFIG_DEFAULTS ${JSON.stringify(value)}`];
    });
    expect(problems).toEqual([]);
  });

  it('has no default that CONFIG_DEFAULTS does not have', () => {
    const extra = [...inSchema.keys()].filter((key) => !inCode.has(key));
    expect(extra).toEqual([]);
  });
});

/**
 * Keys whose default lands somewhere else in the normalized config: agents.defaults is folded into every
 * resolved agent, memory.qmd settings into each agent's memory, and the SSO JWT block exists only when
 * configured. Every other default must appear at its own key, so a key added to the schema but forgotten by
 * normalization fails here.
 */
const RESHAPED_BY_NORMALIZATION = new Set([
  'gateway.admin.sso.jwt.header',
  'agents.defaults.model',
  'agents.defaults.memorySearch.qmd.extraCollections',
  'agents.defaults.sandbox.mode',
  'agents.defaults.tools.allow',
  'agents.defaults.tools.deny',
  // Into each agent's `approvals` (normalize-agents.spec.ts: an agent with nothing set gets these).
  'agents.defaults.tools.requiresApproval',
  'agents.defaults.tools.approvalTimeoutMs',
  'agents.defaults.tools.approvers',
  'agents.defaults.subagents.maxSpawnDepth',
  'agents.defaults.subagents.maxChildrenPerAgent',
  'agents.list',
  'memory.qmd.sessions.enabled',
  'memory.qmd.update.debounceMs',
  'memory.qmd.limits.maxResults',
  'memory.qmd.limits.maxSnippetChars',
  'memory.qmd.limits.minScore',
]);

/** The value at a dotted key of the normalized config (maps are Maps there). */
function valueAt(root: unknown, key: string): unknown {
  let node = root;
  for (const segment of key.split('.')) node = node instanceof Map ? node.get(segment) : isRecord(node) ? node[segment] : undefined;
  return node;
}

describe('normalization', () => {
  it('carries every default to the same key of the snapshot of an empty config', async () => {
    const { config } = await snapshotFrom({});
    const direct = [...configDefaultsByKey()].filter(([key]) => !key.includes('[]') && !key.includes('<'));
    expect(direct.length).toBeGreaterThan(30);
    const missed = direct
      .filter(([key]) => !RESHAPED_BY_NORMALIZATION.has(key))
      .filter(([key, value]) => JSON.stringify(valueAt(config, key)) !== JSON.stringify(value))
      .map(([key, value]) => `${key}: the snapshot has ${JSON.stringify(valueAt(config, key))}, the default is ${JSON.stringify(value)}`);
    expect(missed).toEqual([]);
  });
});
