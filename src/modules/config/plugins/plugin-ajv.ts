import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';

/**
 * The one JSON Schema compiler for plugins: their manifests, their `configSchema` and their channels'
 * schemas. `allErrors` so a config with three wrong values gets three messages; not `strict`, because
 * manifests written for OpenClaw carry annotations (`uiHints`, `x-…`) ajv does not know; formats are not
 * checked (no format vocabulary is loaded), so a schema using one still compiles. `verbose` gives each error
 * its value and schema, for messages that say what was found and which keys exist.
 */
export function pluginAjv(): Ajv {
  return new Ajv({ allErrors: true, verbose: true, strict: false, validateFormats: false, logger: false });
}

/** Compiles `schema`, or says why it cannot be (ajv's message, which names the keyword and where it sits). */
export function compileSchema(ajv: Ajv, schema: Record<string, unknown>): { validate: ValidateFunction } | { problem: string } {
  try {
    return { validate: ajv.compile(schema) };
  } catch (err) {
    return { problem: (err as Error).message };
  }
}

export type { ErrorObject, ValidateFunction };
