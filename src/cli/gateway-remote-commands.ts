import { formatConfigIssue } from '../modules/config';
import { callGateway } from './gateway-client';

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
  const res = await callGateway('POST', '/admin/config/reload', { acceptedErrors: [422] });
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
