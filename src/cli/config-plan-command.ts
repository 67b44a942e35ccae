import { promises as fs } from 'node:fs';
import type { ConfigPlan } from '../modules/config-plan';
import { formatPlan } from './plan-report';

/** Where the CLI finds the gateway when CLAWGATE_URL is unset: the default port on loopback. */
export const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:18789';

/**
 * `clawgate config plan <file>`: asks the running gateway (CLAWGATE_URL, CLAWGATE_TOKEN) what the file would
 * change, through `POST /admin/config/plan`. Prints the plan (or, with --json, the answer as it came); exit
 * 1 when the candidate is invalid or the gateway refused the request.
 */
export async function runConfigPlan(file: string, opts: { json?: boolean }): Promise<void> {
  let document: string;
  try {
    document = await fs.readFile(file, 'utf8');
  } catch (err) {
    return fail(`cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const base = (process.env.CLAWGATE_URL || DEFAULT_GATEWAY_URL).replace(/\/+$/, '');
  const token = process.env.CLAWGATE_TOKEN;
  let res: Response;
  try {
    res = await fetch(`${base}/admin/config/plan`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ document }),
    });
  } catch (err) {
    return fail(
      `cannot reach the gateway at ${base} (${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}); set CLAWGATE_URL`,
    );
  }
  const text = await res.text();
  if (!res.ok) return fail(`the gateway answered ${res.status}: ${problemDetail(text)}`);
  const plan = JSON.parse(text) as ConfigPlan;
  process.stdout.write(opts.json ? `${JSON.stringify(plan, null, 2)}\n` : formatPlan(plan));
  if (!plan.valid) process.exitCode = 1;
}

function problemDetail(text: string): string {
  try {
    const body = JSON.parse(text) as { detail?: unknown; title?: unknown };
    const said = body.detail ?? body.title;
    return typeof said === 'string' ? said : text.slice(0, 200);
  } catch {
    return text.slice(0, 200);
  }
}

function fail(message: string): void {
  process.stderr.write(`clawgate: ${message}\n`);
  process.exitCode = 1;
}
