import type { ModelProviderSettings } from '../../config';
import { ModelProviderError } from '../model-provider.port';
import { maskSecretValues } from '../../../common/secrets/secret-mask';
import { isRecord } from '../../../common/is-record';

/** How much of a provider's own error text goes into our message (the runner caps run errors at 512). */
export const PROVIDER_MESSAGE_MAX_CHARS = 300;

export interface PostJsonInput {
  settings: ModelProviderSettings;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** The run's signal: aborting it rejects at once with the signal's reason (the runner reports `aborted`). */
  signal: AbortSignal;
  /** The W3C trace context of the call (ModelRequest.traceHeaders); the provider's configured headers win over it. */
  traceHeaders?: Readonly<Record<string, string>>;
}

/**
 * POSTs JSON to a model API and returns the parsed 2xx body. Everything that can go wrong — unreachable host,
 * timeout, non-2xx, a body that is not JSON — becomes a ModelProviderError naming the provider and the setting
 * to fix, with every secret (API key, configured header values) scrubbed from the text.
 */
export function postJson(input: PostJsonInput): Promise<unknown> {
  return postToModel(input, async (res) => parseJsonBody(input.settings, await res.text()));
}

/** A 2xx body as JSON, or the malformed-response error (secrets scrubbed from the quoted text). */
export function parseJsonBody(settings: ModelProviderSettings, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw providerError(
      settings,
      `model provider ${settings.name} returned a malformed response (not JSON): ${snippet(maskSecretValues(text, secretsOf(settings)))}`,
    );
  }
}

/**
 * The one way to a model API: POSTs JSON and hands a 2xx response to `readBody`, all of it under the run's
 * signal and `timeoutMs`. Redirects, non-2xx answers and transport failures (also while `readBody` reads)
 * become ModelProviderErrors; a ModelProviderError thrown by `readBody` (e.g. an error event mid-stream)
 * passes unchanged; an abort rejects with the run's reason.
 */
export async function postToModel<T>(input: PostJsonInput, readBody: (res: Response) => Promise<T>): Promise<T> {
  const { settings, url, signal } = input;
  const fail = (message: string) => providerError(settings, message);
  if (signal.aborted) throw signal.reason ?? new Error('aborted');

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new Error('timeout')), settings.timeoutMs);
  const combined = anySignal([signal, timeout.signal]);
  try {
    let res: Response;
    try {
      // Never follow a redirect: a 307/308 would replay the request — API key included — to wherever the
      // Location points. Model calls are not on the GuardedTransport (they need more than its 30 s cap).
      res = await fetch(url, {
        method: 'POST',
        headers: input.traceHeaders ? { ...input.traceHeaders, ...input.headers } : input.headers,
        body: JSON.stringify(input.body),
        signal: combined,
        redirect: 'manual',
      });
    } catch (err) {
      throw transportError(err, input, timeout.signal, fail);
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => undefined);
      throw fail(
        `model provider ${settings.name} answered with a redirect (HTTP ${res.status}); redirects are not followed: set models.providers.${settings.name}.baseUrl to the final URL`,
      );
    }
    if (!res.ok) {
      let text: string;
      try {
        text = await res.text();
      } catch (err) {
        throw transportError(err, input, timeout.signal, fail);
      }
      throw providerError(settings, httpErrorMessage(settings, res.status, text), res.status);
    }
    try {
      // The body read is covered by the same signal: a server that sends headers then stalls still times out.
      return await readBody(res);
    } catch (err) {
      if (err instanceof ModelProviderError && !signal.aborted) throw err;
      throw transportError(err, input, timeout.signal, fail);
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The provider's own error text from a JSON error body (OpenAI/Anthropic `error.message`, Ollama `error`),
 * secrets scrubbed *before* truncating so a cut can never leave part of a key behind.
 */
export function providerErrorMessage(settings: ModelProviderSettings, rawText: string): string {
  const clean = (t: string) => snippet(maskSecretValues(t, secretsOf(settings)));
  try {
    const body = JSON.parse(rawText) as { error?: unknown; message?: unknown };
    const err = body?.error;
    if (err && typeof err === 'object' && typeof (err as { message?: unknown }).message === 'string') {
      return clean((err as { message: string }).message);
    }
    if (typeof err === 'string') return clean(err);
    if (typeof body?.message === 'string') return clean(body.message);
  } catch {
    // not JSON: fall through to the raw text (proxies answer with HTML or plain text)
  }
  return clean(rawText) || '(empty body)';
}

/** Where the key comes from, for messages: `set OPENAI_API_KEY or models.providers.openai.apiKey`. */
export function apiKeySetting(settings: ModelProviderSettings): string {
  const at = `models.providers.${settings.name}.apiKey`;
  return settings.apiKeyEnv ? `set ${settings.apiKeyEnv} or ${at}` : `set ${at}`;
}

/** A ModelProviderError with every secret of the provider (API key, header values) scrubbed out. */
export function providerError(settings: ModelProviderSettings, message: string, httpStatus?: number): ModelProviderError {
  return new ModelProviderError(maskSecretValues(message, secretsOf(settings)), httpStatus);
}

/** A malformed (but JSON) success body: the shape check failed. */
export function malformed(settings: ModelProviderSettings, what: string): ModelProviderError {
  return providerError(settings, `model provider ${settings.name} returned a malformed response: ${what}`);
}

/** One streamed event's data as the JSON object it must be; a clear provider error otherwise. */
export function streamEventObject(settings: ModelProviderSettings, data: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw malformed(settings, `a stream event is not JSON: ${snippet(data, 120)}`);
  }
  if (!isRecord(parsed)) throw malformed(settings, 'a stream event is not a JSON object');
  return parsed;
}

export function snippet(text: string, max = PROVIDER_MESSAGE_MAX_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function httpErrorMessage(settings: ModelProviderSettings, status: number, text: string): string {
  const detail = providerErrorMessage(settings, text);
  const prefix = `model provider ${settings.name} returned HTTP ${status}: ${detail}`;
  if (status === 401 || status === 403) {
    const hint = settings.apiKey ? `check the key (${apiKeySetting(settings)})` : `no API key is set: ${apiKeySetting(settings)}`;
    return `${prefix} — ${hint}`;
  }
  if (status === 404) return `${prefix} — check the model name and models.providers.${settings.name}.baseUrl`;
  return prefix;
}

function transportError(err: unknown, input: PostJsonInput, timeout: AbortSignal, fail: (m: string) => ModelProviderError): unknown {
  const { settings, signal } = input;
  // The run was aborted: hand back its reason untouched so the runner records `aborted`, not `failed`.
  if (signal.aborted) return signal.reason ?? err;
  if (timeout.aborted) {
    return fail(
      `model provider ${settings.name} did not answer within ${settings.timeoutMs} ms (models.providers.${settings.name}.timeoutMs)`,
    );
  }
  const e = err as Error & { cause?: { code?: string; message?: string } };
  const cause = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
  return fail(`model provider ${settings.name} is unreachable at ${input.url} (${cause}): check models.providers.${settings.name}.baseUrl`);
}

function secretsOf(settings: ModelProviderSettings): string[] {
  // Very short values (e.g. "1") would shred ordinary text; real secrets are longer.
  return [settings.apiKey, ...Object.values(settings.headers ?? {})].filter((s): s is string => !!s && s.length >= 4);
}

/** AbortSignal.any (Node 20.3+), with a manual fallback for older runtimes. */
function anySignal(signals: AbortSignal[]): AbortSignal {
  const native = (AbortSignal as unknown as { any?: (s: AbortSignal[]) => AbortSignal }).any;
  if (typeof native === 'function') return native.call(AbortSignal, signals);
  const controller = new AbortController();
  for (const s of signals) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

/** Request headers: ours first, then `settings.headers` (which win, case-insensitively). */
export function buildHeaders(own: Record<string, string | undefined>, settings: ModelProviderSettings): Record<string, string> {
  const headers = new Headers();
  for (const [k, v] of Object.entries(own)) if (v !== undefined) headers.set(k, v);
  for (const [k, v] of Object.entries(settings.headers ?? {})) headers.set(k, v);
  return Object.fromEntries(headers.entries());
}

/** `${baseUrl}${path}` without doubled slashes; a missing baseUrl is a config problem, named as such. */
export function endpoint(settings: ModelProviderSettings, path: string): string {
  if (!settings.baseUrl)
    throw new ModelProviderError(`model provider ${settings.name} has no baseUrl: set models.providers.${settings.name}.baseUrl`);
  return `${settings.baseUrl.replace(/\/+$/, '')}${path}`;
}
