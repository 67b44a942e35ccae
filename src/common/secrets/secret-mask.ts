/**
 * Last line of defence against leaking configured secrets: every log line and every HTTP response body is
 * passed through `maskSecrets`, which replaces the exact values of the secrets the running gateway knows
 * (admin tokens, peer tokens, API keys, ...) with `[redacted]`. Call sites still must not put secrets
 * anywhere; this catches the ones that slip through (an upstream error echoing a key, a stack trace, ...).
 *
 * The values come from "sources" registered by whoever knows them (the admin module registers the current
 * config snapshot), so this file stays free of config types and the logger can use it before Nest exists.
 */

export const MASKED = '[redacted]';

/**
 * Shorter values are not masked: replacing every occurrence of, say, "abc" would mangle unrelated text.
 * Such secrets are guessable anyway; the admin module warns about them when a config is applied.
 */
export const MIN_MASKED_SECRET_LENGTH = 8;

type SecretSource = () => Iterable<string>;

const sources = new Set<SecretSource>();

/**
 * Adds a provider of secret values, asked on every mask call (so hot-reloaded secrets apply at once). Return
 * the same list object while nothing changed: the masker then reuses its prepared search strings.
 */
export function registerSecretSource(source: SecretSource): () => void {
  sources.add(source);
  return () => {
    sources.delete(source);
  };
}

/**
 * Values shorter than this are left alone by the targeted masker (maskSecretValues): replacing a 1–3
 * character string would mangle the message around it.
 */
const MIN_TARGETED_SECRET_LENGTH = 4;

/** Every form a secret can take in serialized text: as is, JSON-escaped, URL-encoded. */
function textForms(secret: string): string[] {
  const forms = new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
  // A JSON-escaped value inside a JSON string that is itself logged as JSON (double escaping).
  forms.add(JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1));
  return [...forms];
}

/** The text forms of `secrets`, longest first so a secret containing another is masked whole. */
function formsLongestFirst(secrets: Iterable<string>): string[] {
  return [...new Set([...secrets].flatMap(textForms))].sort((a, b) => b.length - a.length);
}

/**
 * One regular expression that finds any of `forms`: a single pass over the text instead of one `includes` per
 * form, which is what made masking cost grow with the number of secrets (a 1 MB response with 20 secrets
 * took milliseconds). It only detects; the replacing stays the longest-first pass below, so what is masked
 * does not change.
 */
function detectorOf(forms: readonly string[]): RegExp | undefined {
  return forms.length ? new RegExp(forms.map((form) => form.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')).join('|')) : undefined;
}

function replaceForms(text: string, forms: readonly string[], marker: string): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(marker);
  return out;
}

/**
 * `text` with the given secrets masked by the same rule as maskSecrets (every text form, longest first).
 * For text from outside (a peer's or a model provider's error) that may echo the credential this one
 * request sent; such one-line messages use a compact marker.
 */
export function maskSecretValues(text: string, secrets: Iterable<string>, marker = '***'): string {
  const usable = [...secrets].filter((s) => typeof s === 'string' && s.length >= MIN_TARGETED_SECRET_LENGTH);
  return usable.length ? replaceForms(text, formsLongestFirst(usable), marker) : text;
}

let lastLists: Array<Iterable<string>> = [];
let cacheKey = '';
let cachedForms: string[] = [];
let cachedDetector: RegExp | undefined;

/** Current secret texts, longest first so a secret containing another is masked whole. */
function currentForms(): string[] {
  const lists: Array<Iterable<string>> = [];
  for (const source of sources) {
    try {
      lists.push(source());
    } catch {
      // A source that cannot answer (config not loaded yet) contributes nothing.
    }
  }
  // Sources hand out the same list object while their config is unchanged: then nothing needs recomputing.
  if (lists.length === lastLists.length && lists.every((l, i) => l === lastLists[i])) return cachedForms;
  lastLists = lists;
  const values = new Set<string>();
  for (const list of lists) for (const v of list) if (typeof v === 'string' && v.length >= MIN_MASKED_SECRET_LENGTH) values.add(v);
  const sorted = [...values].sort();
  const key = sorted.join('\u0000');
  if (key !== cacheKey) {
    cacheKey = key;
    cachedForms = formsLongestFirst(sorted);
    cachedDetector = detectorOf(cachedForms);
  }
  return cachedForms;
}

/** `text` with every known secret value replaced by `[redacted]`. */
export function maskSecrets(text: string): string {
  const forms = currentForms();
  return cachedDetector?.test(text) ? replaceForms(text, forms, MASKED) : text;
}

/** True when `text` contains a known secret (used to skip re-encoding bodies that need no change). */
export function containsSecret(text: string): boolean {
  currentForms();
  return cachedDetector?.test(text) ?? false;
}
