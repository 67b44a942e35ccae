import { MASKED } from './secret-mask';

/**
 * Request headers that carry credentials under a name only the config knows (a custom SSO assertion header
 * such as `X-Amzn-Oidc-Data`): the fixed redact paths of the logger cannot name them in advance, so the
 * request serializer of every log line asks the registered sources. A source is asked on each call, so a
 * header renamed by a reload is covered at once.
 */
type HeaderNameSource = () => Iterable<string>;

const sources = new Set<HeaderNameSource>();

/** Adds a provider of header names to blank in logs. Returns the function that removes it. */
export function registerSecretHeaderSource(source: HeaderNameSource): () => void {
  sources.add(source);
  return () => {
    sources.delete(source);
  };
}

function secretHeaderNames(): Set<string> {
  const names = new Set<string>();
  for (const source of sources) {
    try {
      for (const name of source()) if (typeof name === 'string' && name) names.add(name.toLowerCase());
    } catch {
      // A source that cannot answer (config not loaded yet) contributes nothing.
    }
  }
  return names;
}

/**
 * `headers` with the values of every registered secret header replaced by `[redacted]`: a copy when one
 * is present (Node's headers object is the live request's and must not change), else the same object.
 */
export function redactSecretHeaders<H extends Record<string, unknown>>(headers: H): H {
  const names = secretHeaderNames();
  if (!names.size || !Object.keys(headers).some((k) => names.has(k.toLowerCase()))) return headers;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = names.has(k.toLowerCase()) ? MASKED : v;
  return out as H;
}
