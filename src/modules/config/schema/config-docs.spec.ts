import { JsonSchema, keyReferenceSection, normalizePlaceholders, readConfigDoc, walkSchemaProperties } from '../../../../test/support/config-reference';
import { buildConfigJsonSchema } from './export-schema';

/**
 * Keeps docs/configuration.md complete: every key of the config surface must have a row in the key
 * reference, and every row must name a key that exists.
 *
 * Convention (also explained in the doc): within the "Key reference" section (the `##` heading that says so,
 * up to the next `##` heading), a reference row is a Markdown table row whose first cell holds the key's
 * full dotted path in backticks (several paths may share a cell). Array elements are written
 * `[]` (`agents.list[].id`); a name chosen by the user in a map is a placeholder in angle brackets
 * (`channels.a2a.peers.<name>.token`, `agents.entries.<id>.model` — any `<word>` counts). A key that is
 * itself an object has its own row. `$include` (allowed in every object) and the root `$schema` are not
 * walked; the doc must describe them in their own sections instead.
 */

/** Keys documented in their own sections rather than as reference rows. */
const SEPARATELY_DOCUMENTED = new Set(['$include', '$schema']);

/** Every property path of the schema, e.g. `gateway.admin.sso.jwt.jwksUrl`, `agents.list[].id`. */
function configKeyPaths(schema: JsonSchema): string[] {
  const out: string[] = [];
  // A map of config objects (`peers`, `providers`, `entries`): its entries' keys are documented under a
  // placeholder name. Maps of plain strings (`headers`, `roleMapping`) are leaves.
  walkSchemaProperties(schema, (keyPath) => out.push(keyPath), {
    skip: SEPARATELY_DOCUMENTED,
    entersMap: (entry) => Boolean(entry.properties || entry.additionalProperties),
  });
  return out;
}

/** Backticked paths in the first cell of every table row (fenced code blocks skipped). */
function documentedRowKeys(section: string): Set<string> {
  const withoutFences = section.replace(/^```[\s\S]*?^```/gm, '');
  const keys = new Set<string>();
  for (const line of withoutFences.split('\n')) {
    const row = /^\|\s*(`[^|]*?)\s*\|/.exec(line);
    if (!row) continue;
    for (const span of row[1].matchAll(/`([^`]+)`/g)) keys.add(normalizePlaceholders(span[1].trim()));
  }
  return keys;
}

describe('docs/configuration.md', () => {
  const doc = readConfigDoc();
  const schemaKeys = configKeyPaths(buildConfigJsonSchema());
  const rowKeys = documentedRowKeys(keyReferenceSection(doc));

  it('finds the config surface in the generated schema', () => {
    // Sanity checks on the walker itself, so a broken walk cannot make the test pass vacuously.
    expect(schemaKeys.length).toBeGreaterThan(100);
    expect(schemaKeys).toEqual(
      expect.arrayContaining([
        'gateway.port',
        'channels.a2a.replyTimeoutMs',
        'channels.a2a.peers.<name>.token',
        'agents.list[].memorySearch.qmd.extraCollections[].name',
        'agents.entries.<name>.identity.emoji',
        'gateway.admin.sso.roleMapping',
        'models.providers.<name>.headers',
      ]),
    );
    expect(schemaKeys).not.toContain('gateway.admin.sso.roleMapping.<name>');
    expect(new Set(schemaKeys).size).toBe(schemaKeys.length);
  });

  it('has a reference row for every config key', () => {
    const missing = schemaKeys.filter((key) => !rowKeys.has(key));
    expect(missing).toEqual([]);
  });

  it('has no reference row for a key the schema does not define', () => {
    const known = new Set(schemaKeys);
    const stale = [...rowKeys].filter((key) => !known.has(key));
    expect(stale).toEqual([]);
  });

  it('documents $schema and $include in their own sections', () => {
    expect(doc).toMatch(/^#+ .*`\$schema`/m);
    expect(doc).toMatch(/^#+ .*`\$include`/m);
  });
});
