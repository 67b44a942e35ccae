import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Reading the config surface two ways — the generated JSON Schema and the key reference of
 * docs/configuration.md — for the specs that keep the doc, the schema and the defaults in step.
 */

export type JsonSchema = Record<string, unknown>;

export const CONFIG_DOC_PATH = path.resolve(__dirname, '../../docs/configuration.md');
/** How the doc writes a name chosen by the user in a map (`channels.a2a.peers.<name>.token`). */
export const PLACEHOLDER = '<name>';

export function readConfigDoc(): string {
  return readFileSync(CONFIG_DOC_PATH, 'utf8');
}

/** Any `<word>` placeholder as the one the walker writes, so `<id>` and `<name>` compare equal. */
export function normalizePlaceholders(text: string): string {
  return text.replace(/<[A-Za-z][A-Za-z0-9_-]*>/g, PLACEHOLDER);
}

/** The text of the "Key reference" section: from its `##` heading to the next `##` heading. */
export function keyReferenceSection(markdown: string): string {
  const start = markdown.search(/^## .*Key reference.*$/m);
  if (start < 0) throw new Error('docs/configuration.md has no "## … Key reference" section');
  const rest = markdown.slice(start + 3);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

export interface SchemaWalkOptions {
  /** Property names not walked (nor reported). */
  skip?: ReadonlySet<string>;
  /** Whether the values of a map are walked under the placeholder name; all maps by default. */
  entersMap?: (entry: JsonSchema) => boolean;
}

/**
 * Calls `visit` with the dotted path of every property of the schema, in the doc's notation: array elements
 * as `[]` (`agents.list[].id`), map entries as the placeholder (`models.providers.<name>.timeoutMs`).
 */
export function walkSchemaProperties(
  schema: JsonSchema,
  visit: (keyPath: string, property: JsonSchema) => void,
  options: SchemaWalkOptions = {},
): void {
  const definitions = (schema.definitions ?? {}) as Record<string, JsonSchema>;
  const deref = (node: JsonSchema): JsonSchema => {
    const ref = node.$ref;
    if (typeof ref !== 'string') return node;
    const target = definitions[ref.replace('#/definitions/', '')];
    if (!target) throw new Error(`unresolved $ref ${ref}`);
    return target;
  };
  const walk = (raw: JsonSchema, prefix: string, depth: number): void => {
    if (depth > 20) throw new Error(`schema nests too deep at ${prefix}`);
    const node = deref(raw);
    if (node.type === 'array' && node.items && typeof node.items === 'object') {
      walk(node.items as JsonSchema, `${prefix}[]`, depth + 1);
      return;
    }
    for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, JsonSchema>)) {
      if (options.skip?.has(key)) continue;
      const keyPath = prefix ? `${prefix}.${key}` : key;
      visit(keyPath, child);
      walk(child, keyPath, depth + 1);
    }
    const values = node.additionalProperties;
    if (values && typeof values === 'object') {
      const entry = deref(values as JsonSchema);
      if (options.entersMap?.(entry) ?? true) walk(entry, `${prefix}.${PLACEHOLDER}`, depth + 1);
    }
  };
  walk(schema, '', 0);
}
