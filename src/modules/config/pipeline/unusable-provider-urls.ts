import { isPlainObject } from '../../../common/is-record';
import { ConfigIssue, toDottedPath } from './config-issue';
import type { ConfigValueQuoter } from './config-value-quoter';
import type { Substitution } from './substitute-env';

/** The document without the provider URLs set aside, and why each of those providers cannot be called. */
export interface UnusableProviderUrls {
  document: unknown;
  /** Provider name → why runs on it fail (names the variable, never its value). */
  providers: ReadonlyMap<string, string>;
  warnings: ConfigIssue[];
}

/**
 * Pipeline step between `${VAR}` and validation: a `models.providers.<name>.baseUrl` whose value came from the
 * environment and is no http(s) URL is an environment that is not ready (a deploy template whose variables are
 * filled later, a variable holding a host name), not a mistake in the file. It does not stop the gateway: the URL is
 * taken out, the provider is marked unusable with a warning naming the variable, and a run on one of its models fails
 * with that reason and goes on to its fallbacks. The provider never falls back to a built-in URL: its key would then
 * go to a server the file did not name. A URL written literally in the file stays the validator's error.
 */
export function setAsideUnusableProviderUrls(
  doc: unknown,
  substitutions: readonly Substitution[],
  quoter: ConfigValueQuoter,
): UnusableProviderUrls {
  const providers = new Map<string, string>();
  const warnings: ConfigIssue[] = [];
  const models = isPlainObject(doc) && isPlainObject(doc.models) ? doc.models : undefined;
  const configured = models && isPlainObject(models.providers) ? models.providers : undefined;
  if (!configured || !substitutions.length) return { document: doc, providers, warnings };
  const substituted = new Set(substitutions.map((s) => s.path));
  const kept: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(configured)) {
    const path = toDottedPath(['models', 'providers', name, 'baseUrl']);
    if (!isPlainObject(entry) || typeof entry.baseUrl !== 'string' || !substituted.has(path) || isHttpUrl(entry.baseUrl)) {
      kept[name] = entry;
      continue;
    }
    const value = quoter.quote(path, entry.baseUrl);
    const reason = `model provider ${name} cannot be called: its baseUrl, ${value}, is not an http(s) URL (models.providers.${name}.baseUrl)`;
    providers.set(name, reason);
    warnings.push({ path, message: `${value} is not an http(s) URL: provider ${name} cannot be called until it is, and a run whose model is on it goes on to its fallbacks` });
    const { baseUrl: _unusable, ...rest } = entry;
    kept[name] = rest;
  }
  if (!providers.size) return { document: doc, providers, warnings };
  return { document: { ...(doc as Record<string, unknown>), models: { ...models, providers: kept } }, providers, warnings };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
