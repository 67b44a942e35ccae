import { CONFIG_DEFAULTS } from '../modules/config';

/**
 * The CLI's client for a running gateway's admin API: found by CLAWGATE_URL (default: loopback on the default
 * port), CLAWGATE_TOKEN sent as the admin bearer token and never printed, redirects not followed (the token goes
 * only where the URL says), every failure reported naming the URL.
 */

const REQUEST_TIMEOUT_MS = 10_000;

export interface GatewayAnswer {
  url: string;
  status: number;
  body: unknown;
}

/** Why the gateway refused, in words a shell user can act on (the token itself is never shown). */
const REFUSAL_HINT: Record<number, string> = {
  401: 'set CLAWGATE_TOKEN to an admin token of this gateway (gateway.admin.tokens)',
  403: 'the role of CLAWGATE_TOKEN is below the one this needs',
};

/**
 * One admin request (`body` sent as JSON); on any failure prints why (naming the URL) and sets exit code 1,
 * returning undefined. `acceptedErrors`: statuses the caller reads itself. A JSON answer comes back parsed,
 * any other (`accept`, e.g. application/x-ndjson) as its text.
 */
export async function callGateway(
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; acceptedErrors?: number[]; accept?: string } = {},
): Promise<GatewayAnswer | undefined> {
  const acceptedErrors = options.acceptedErrors ?? [];
  const base = gatewayUrl();
  if (typeof base !== 'string') return fail(base.error);
  const target = `${base}${path}`;
  const token = process.env.CLAWGATE_TOKEN?.trim();
  let res: Response;
  try {
    res = await fetch(target, {
      method,
      headers: {
        accept: options.accept ?? 'application/json',
        // Body-less writes (reload, cancel) need it: the gateway refuses a write a form could send (docs/admin-security.md).
        'x-clawgate-client': 'cli',
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      redirect: 'manual',
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (err as Error).message;
    return fail(`cannot reach the gateway at ${base} (${why}); is it running? (set CLAWGATE_URL to its address)`);
  }
  const text = await res.text();
  // A successful answer in another media type (a JSON Lines export) is handed over as text.
  const json = /^application\/([\w.+-]+\+)?json\b/i.test(res.headers.get('content-type') ?? '') || !res.ok;
  let body: unknown = text;
  if (json) {
    try {
      body = JSON.parse(text);
    } catch {
      return fail(`${target} answered HTTP ${res.status} with a body that is not JSON; is ${base} a clawgate gateway?`);
    }
  }
  if (!res.ok && !acceptedErrors.includes(res.status)) {
    const detail = (body as { detail?: unknown }).detail;
    const hint = REFUSAL_HINT[res.status];
    return fail(`${target} answered HTTP ${res.status}${typeof detail === 'string' ? `: ${detail}` : ''}${hint ? ` (${hint})` : ''}`);
  }
  return { url: base, status: res.status, body };
}

/** CLAWGATE_URL without a trailing slash, or what is wrong with it. */
function gatewayUrl(): string | { error: string } {
  const raw = process.env.CLAWGATE_URL?.trim() || `http://127.0.0.1:${CONFIG_DEFAULTS.gateway.port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { error: `CLAWGATE_URL must be an http(s) URL such as http://127.0.0.1:18789 (got "${raw}")` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { error: `CLAWGATE_URL must be an http(s) URL such as http://127.0.0.1:18789 (got "${raw}")` };
  }
  if (url.username || url.password) return { error: 'CLAWGATE_URL must not carry credentials; put the admin token in CLAWGATE_TOKEN' };
  return url.href.replace(/\/+$/, '');
}

export function fail(message: string): undefined {
  process.stderr.write(`clawgate: ${message}\n`);
  process.exitCode = 1;
  return undefined;
}
