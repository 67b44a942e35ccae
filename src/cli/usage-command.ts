import { callGateway } from './gateway-client';

/**
 * `clawgate usage`: model tokens and cost of a running gateway, grouped, through its admin API (GET /admin/usage;
 * CLAWGATE_URL, CLAWGATE_TOKEN with the viewer role). Bad options are the gateway's 400, naming the parameter.
 */

interface UsageGroup {
  group: string;
  bucket?: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cost: number | null;
  unpricedCalls: number;
}

interface UsagePage {
  groupBy: string;
  from: string;
  to: string;
  items: UsageGroup[];
  nextCursor?: string;
}

const out = (line: string): void => void process.stdout.write(`${line}\n`);

export async function runUsage(opts: { by?: string; since?: string; until?: string; bucket?: string; json?: boolean }): Promise<void> {
  const items: UsageGroup[] = [];
  let page: UsagePage | undefined;
  // Every page: the CLI prints the whole window.
  for (let cursor: string | undefined; ;) {
    const query = new URLSearchParams({ groupBy: opts.by ?? 'agent', from: opts.since ?? '24h', limit: '1000' });
    if (opts.until !== undefined) query.set('to', opts.until);
    if (opts.bucket !== undefined) query.set('bucket', opts.bucket);
    if (cursor) query.set('cursor', cursor);
    const res = await callGateway('GET', `/admin/usage?${query.toString()}`);
    if (!res) return;
    page = res.body as UsagePage;
    items.push(...page.items);
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  if (opts.json) return out(JSON.stringify({ ...page, items, nextCursor: undefined }, null, 2));
  out(`usage by ${page.groupBy}, ${page.from} – ${page.to}`);
  if (!items.length) return out('no model calls');
  const rows = items.map((g) => [
    ...(g.bucket ? [g.bucket] : []),
    g.group,
    String(g.calls),
    String(g.inputTokens),
    String(g.outputTokens),
    String(g.cachedTokens),
    g.cost === null ? '-' : `${g.cost.toFixed(6)}${g.unpricedCalls ? ` (+${g.unpricedCalls} unpriced)` : ''}`,
  ]);
  const header = [...(items[0].bucket ? ['bucket'] : []), page.groupBy, 'calls', 'input', 'output', 'cached', 'cost'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows])
    out(
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    );
}
