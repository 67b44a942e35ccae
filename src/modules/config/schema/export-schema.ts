import 'reflect-metadata';
import { getMetadataStorage } from 'class-validator';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import './openclaw.schema';

// class-transformer keeps its @Type metadata in a module it does not re-export; the generator needs it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage };

/**
 * The JSON Schema of openclaw.json, generated from the same classes that validate it at runtime
 * (`npm run schema` writes it to schemas/openclaw.schema.json; a test keeps that file current).
 */
export function buildConfigJsonSchema(): Record<string, unknown> {
  const definitions = validationMetadatasToSchemas({
    classValidatorMetadataStorage: getMetadataStorage(),
    classTransformerMetadataStorage: defaultMetadataStorage,
    refPointerPrefix: '#/definitions/',
  }) as Record<string, Record<string, unknown>>;
  for (const def of Object.values(definitions)) tidy(def, definitions);
  const root = definitions.OpenClawConfig;
  // The metadata storage holds every validated class of the process (admin DTOs too); keep the config's own.
  const used = reachableDefinitions(root, definitions);
  const rest = Object.fromEntries(Object.entries(definitions).filter(([name]) => name !== 'OpenClawConfig' && used.has(name)));
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://clawgate.dev/schemas/openclaw.schema.json',
    title: 'openclaw.json',
    ...root,
    definitions: sortKeys(rest),
  };
}

const INCLUDE_PROPERTY = {
  description: 'Merge other JSON5 files here (relative to this file, inside the config directory).',
  oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
};

/**
 * Fixes what the generator gets wrong for our shapes: it adds `$ref`s to the built-in Map/Array types
 * (which would make editors reject everything), and it writes `format: "url"` where JSON Schema says
 * "uri". Every object also accepts `$include`, which is resolved before validation.
 */
function tidy(node: unknown, definitions: Record<string, unknown>): void {
  if (!node || typeof node !== 'object') return;
  const obj = node as Record<string, unknown>;
  if (typeof obj.$ref === 'string' && !(obj.$ref.replace('#/definitions/', '') in definitions)) delete obj.$ref;
  if (obj.format === 'url') obj.format = 'uri';
  if (obj.additionalProperties === false && obj.properties && typeof obj.properties === 'object') {
    (obj.properties as Record<string, unknown>).$include = INCLUDE_PROPERTY;
  }
  for (const value of Object.values(obj)) tidy(value, definitions);
}

/** Names of the definitions `root` refers to, directly or through other definitions. */
function reachableDefinitions(root: unknown, definitions: Record<string, unknown>): Set<string> {
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      const name = ref.replace('#/definitions/', '');
      if (!seen.has(name)) {
        seen.add(name);
        visit(definitions[name]);
      }
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(root);
  return seen;
}

function sortKeys<T>(obj: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(obj).sort(([a], [b]) => a.localeCompare(b)));
}
