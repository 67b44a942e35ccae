import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { hasUrlCredentials } from '../../../common/net/url-credentials';

/**
 * A keyword of the gateway's for string values that are URLs: `"x-noUrlCredentials": "<where the credential goes
 * instead>"` refuses a URL with `user:password@` in it, with the core schema's words (`must not contain credentials
 * (user:password@); <hint>`). A URL is configuration, shown by the admin API and in logs, not a secret.
 */
export const NO_URL_CREDENTIALS = 'x-noUrlCredentials';

/**
 * The one JSON Schema compiler for plugins: their manifests, their `configSchema` and their channels'
 * schemas. `allErrors` so a config with three wrong values gets three messages; not `strict`, because
 * manifests written for OpenClaw carry annotations (`uiHints`, `x-…`) ajv does not know; formats are not
 * checked (no format vocabulary is loaded), so a schema using one still compiles. `verbose` gives each error
 * its value and schema, for messages that say what was found and which keys exist.
 */
export function pluginAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: false, validateFormats: false, logger: false });
  ajv.addKeyword({
    keyword: NO_URL_CREDENTIALS,
    type: 'string',
    schemaType: 'string',
    errors: true,
    validate: function noUrlCredentials(hint: string, value: string): boolean {
      if (!hasUrlCredentials(value)) return true;
      (noUrlCredentials as { errors?: Partial<ErrorObject>[] }).errors = [
        { keyword: NO_URL_CREDENTIALS, message: `must not contain credentials (user:password@); ${hint}`, params: {} },
      ];
      return false;
    },
  });
  return ajv;
}

/** Compiles `schema`, or says why it cannot be (ajv's message, which names the keyword and where it sits). */
export function compileSchema(ajv: Ajv, schema: Record<string, unknown>): { validate: ValidateFunction } | { problem: string } {
  try {
    return { validate: ajv.compile(schema) };
  } catch (err) {
    return { problem: (err as Error).message };
  }
}

/** Compiled manifest schemas (`configSchema`, channel schemas) by their JSON text: every config load reads them again. */
const manifestSchemas = new Map<string, ReturnType<typeof compileSchema>>();
/** Past this many distinct schemas the cache starts over (a process that loads thousands of changing manifests). */
const MAX_CACHED_SCHEMAS = 500;

/**
 * A manifest's `configSchema` or channel schema, compiled once per distinct schema for the life of the process (a
 * config write used to spend most of its time compiling the bundled plugins' schemas again). Each is compiled by an
 * Ajv of its own, as before the cache, so two plugins' schemas with the same `$id` never meet in one instance.
 */
export function compileManifestSchema(schema: Record<string, unknown>): ReturnType<typeof compileSchema> {
  const key = JSON.stringify(schema);
  let compiled = manifestSchemas.get(key);
  if (!compiled) {
    if (manifestSchemas.size >= MAX_CACHED_SCHEMAS) manifestSchemas.clear();
    compiled = compileSchema(pluginAjv(), schema);
    manifestSchemas.set(key, compiled);
  }
  return compiled;
}

export type { ErrorObject, ValidateFunction };
