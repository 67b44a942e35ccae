import { promises as fs } from 'node:fs';
import type { ConfigPlan } from '../modules/config-plan';
import { callGateway, fail } from './gateway-client';
import { formatPlan } from './plan-report';

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
    fail(`cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    return;
  }
  const res = await callGateway('POST', '/admin/config/plan', { body: { document } });
  if (!res) return;
  const plan = res.body as ConfigPlan;
  process.stdout.write(opts.json ? `${JSON.stringify(plan, null, 2)}\n` : formatPlan(plan));
  if (!plan.valid) process.exitCode = 1;
}
