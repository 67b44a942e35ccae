import { CONFIG_DEFAULTS, formatConfigIssue } from '../modules/config';

/**
 * `clawgate gateway status|reload`: ask a running gateway through its admin API. The gateway is found by
 * CLAWGATE_URL (default: loopback on the default port) and CLAWGATE_TOKEN is sent as the admin bearer token;
 * the token is never printed.
 */

interface Issue {
  path: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

const REQUEST_TIMEOUT_MS = 10_000;

export async function runGatewayStatus(opts: { json?: boolean }): Promise<void> {
  const res = await callGateway('GET', '/admin/config/status');
  if (!res) return;
  const status = res.body as {
    revision: string;
    loadedAt: string;
    configPath: string;
    reloadMode: string;
    pendingRestart: string[];
    warnings: Issue[];
    lastError: { at: string; errors: Issue[] } | null;
  };
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ url: res.url, ...status }, null, 2)}\n`);
    return;
  }
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`gateway ${res.url}: revision ${status.revision}, loaded ${status.loadedAt}, reload mode ${status.reloadMode}`);
  out(`config: ${status.configPath}`);
  out(`pending restart: ${status.pendingRestart.length ? status.pendingRestart.join(', ') : 'none'}`);
  for (const w of status.warnings) out(`warning: ${formatConfigIssue(w)}`);
  if (status.lastError) {
    out(`last rejected change (${status.lastError.at}):`);
    for (const e of status.lastError.errors) out(`  ${formatConfigIssue(e)}`);
  }
}

export async function runGatewayReload(opts: { json?: boolean }): Promise<void> {
  const res = await callGateway('POST', '/admin/config/reload', [422]);
  if (!res) return;
  if (opts.json) process.stdout.write(`${JSON.stringify(res.body, null, 2)}\n`);
  if (res.status === 422) {
    const problem = res.body as { detail?: string; errors?: Issue[] };
    if (!opts.json) {
      process.stderr.write(`clawgate: reload rejected by ${res.url}: ${problem.detail ?? 'invalid config'}\n`);
      for (const e of problem.errors ?? []) process.stderr.write(`  ${formatConfigIssue(e)}\n`);
    }
    process.exitCode = 1;
    return;
  }
  if (opts.json) return;
  const outcome = res.body as { status: string; revision: string; warnings: Issue[]; pendingRestart: string[] };
  process.stdout.write(`${outcome.status} (revision ${outcome.revision}) on ${res.url}\n`);
  for (const w of outcome.warnings) process.stdout.write(`warning: ${formatConfigIssue(w)}\n`);
  if (outcome.pendingRestart.length) process.stdout.write(`needs a restart: ${outcome.pendingRestart.join(', ')}\n`);
}

/** One admin request; on any failure prints why (naming the URL) and sets exit code 1, returning undefined. */
async function callGateway(
  method: 'GET' | 'POST',
  path: string,
  acceptedErrors: number[] = [],
): Promise<{ url: string; status: number; body: unknown } | undefined> {
  const base = gatewayUrl();
  if (typeof base !== 'string') return fail(base.error);
  const target = `${base}${path}`;
  const token = process.env.CLAWGATE_TOKEN?.trim();
  let res: Response;
  try {
    res = await fetch(target, {
      method,
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      redirect: 'manual',
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (err as Error).message;
    return fail(`cannot reach the gateway at ${base} (${why}); is it running? (set CLAWGATE_URL to its address)`);
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail(`${target} answered HTTP ${res.status} with a body that is not JSON; is ${base} a clawgate gateway?`);
  }
  if (!res.ok && !acceptedErrors.includes(res.status)) {
    const detail = (body as { detail?: unknown }).detail;
    return fail(`${target} answered HTTP ${res.status}${typeof detail === 'string' ? `: ${detail}` : ''}`);
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

function fail(message: string): undefined {
  process.stderr.write(`clawgate: ${message}\n`);
  process.exitCode = 1;
  return undefined;
}
