import { CONFIG_DEFAULTS } from './config-defaults';
import { isRecord } from '../../common/is-record';

/** Both ways of writing an agent; its own fields fall back to `agents.defaults`. */
const AGENT_FORMS = ['agents.list[]', 'agents.entries.<name>'];

/** Where each group of `CONFIG_DEFAULTS.each` applies. */
const EACH_APPLIES_TO: Record<keyof typeof CONFIG_DEFAULTS.each, string[]> = {
  agent: AGENT_FORMS,
  memoryCollection: ['memory.qmd.paths[]', 'agents.defaults.memorySearch.qmd.extraCollections[]'],
  modelProvider: ['models.providers.<name>'],
  a2aPeer: ['channels.a2a.peers.<name>'],
  mcpServer: ['mcp.servers.<name>'],
};

/**
 * Every default by the key it applies to, in the notation of the key reference in docs/configuration.md
 * (`[]` is every element of a list, `<name>` every entry of a map): `gateway.port` → 18789,
 * `agents.list[].sandbox.mode` → "off", `models.providers.<name>.timeoutMs` → 120000. The tests that keep
 * the JSON Schema and the docs in line with CONFIG_DEFAULTS compare against this.
 */
export function configDefaultsByKey(): Map<string, unknown> {
  const { each, ...document } = CONFIG_DEFAULTS;
  const placed: Array<[string, unknown]> = leaves(document, '');
  for (const [group, locations] of Object.entries(EACH_APPLIES_TO)) {
    const values = leaves(each[group as keyof typeof each], '');
    for (const at of locations) placed.push(...values.map(([key, value]): [string, unknown] => [`${at}.${key}`, value]));
  }
  const out = new Map<string, unknown>();
  for (const [key, value] of placed) {
    out.set(key, value);
    if (key.startsWith('agents.defaults.')) {
      for (const form of AGENT_FORMS) out.set(key.replace('agents.defaults', form), value);
    }
  }
  return out;
}

/** A default is a leaf: a primitive, a list, or an object without keys; other objects only group keys. */
function leaves(node: object, prefix: string): Array<[string, unknown]> {
  return Object.entries(node).flatMap(([key, value]): Array<[string, unknown]> => {
    const at = prefix ? `${prefix}.${key}` : key;
    const isGroup = isRecord(value) && Object.keys(value).length > 0;
    return isGroup ? leaves(value, at) : [[at, value]];
  });
}
