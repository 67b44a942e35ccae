/**
 * Routing throughput with 10,000 bindings: the pure resolver (uncached) against the RoutingService LRU path.
 * The config goes through the real pipeline (loadConfig on a temp file) so the bindings are exactly what
 * the gateway would run. Run: `npm run bench:routing` (about 12 s).
 *
 * The third figure is a deliberate worst case: round-robin over 50k distinct inbounds never revisits an entry
 * before the 4000-entry LRU evicts it, so every call pays resolve + insert + eviction, and the retained
 * results are promoted to the old generation before they die (GC dominates that profile). Real traffic repeats
 * conversations, which is the hot-set figure.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig, type RuntimeSnapshot } from '../src/modules/config';
import { type InboundMessage, resolveRoute, type RouteResult, RoutingService } from '../src/modules/routing';

const BINDINGS = 10_000;
const AGENTS = 20;
const RUN_MS = 2_500;
const WARMUP_MS = 300;

/** Deterministic PRNG so every run measures the same workload. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
const rand = rng(42);
const pick = (n: number) => Math.floor(rand() * n);

const CHANNELS = ['discord', 'slack', 'whatsapp', 'http', 'telegram'];

/** A binding mix across every tier: 40% peer, 20% guild, 15% team, 15% account, 5% "*", 5% channel only. */
function bindingsText(): string {
  const lines: string[] = [];
  for (let i = 0; i < BINDINGS; i++) {
    const agentId = `agent${i % AGENTS}`;
    const channel = CHANNELS[i % CHANNELS.length];
    const r = i % 20;
    let match: Record<string, unknown>;
    if (r < 8) match = { channel, peer: { kind: r % 2 ? 'direct' : 'group', id: `peer${i}` }, ...(r === 7 ? { accountId: 'work' } : {}) };
    else if (r < 12) match = { channel, guildId: `guild${i}` };
    else if (r < 15) match = { channel, teamId: `team${i}` };
    else if (r < 18) match = { channel, accountId: `acct${i}` };
    else if (r < 19) match = { channel: `${channel}${i}`, accountId: '*' };
    else match = { channel: `${channel}${i}` };
    lines.push(JSON.stringify({ agentId, match }));
  }
  return lines.join(',\n');
}

/** Index of a random binding whose `i % 20` lies in [from, to] (the generator above keys tiers on it). */
function bindingIn(from: number, to: number): number {
  return 20 * pick(BINDINGS / 20) + from + pick(to - from + 1);
}

/** Inbounds spread over every tier, plus some that fall through to the default agent. */
function inbound(): InboundMessage {
  const u = `u${pick(1000)}`;
  switch (pick(7)) {
    case 0: {
      const i = bindingIn(0, 7);
      const channel = CHANNELS[i % CHANNELS.length];
      return { channel, peer: { kind: i % 2 ? 'direct' : 'group', id: `peer${i}` }, ...(i % 20 === 7 ? { accountId: 'work' } : {}) };
    }
    case 1: {
      const i = bindingIn(8, 11);
      return {
        channel: CHANNELS[i % CHANNELS.length],
        guildId: `guild${i}`,
        peer: { kind: 'channel', id: `c${pick(100)}` },
        threadId: `t${pick(10)}`,
      };
    }
    case 2: {
      const i = bindingIn(12, 14);
      return { channel: CHANNELS[i % CHANNELS.length], teamId: `team${i}`, peer: { kind: 'direct', id: u } };
    }
    case 3: {
      const i = bindingIn(15, 17);
      return { channel: CHANNELS[i % CHANNELS.length], accountId: `acct${i}`, peer: { kind: 'direct', id: u } };
    }
    case 4: {
      const i = bindingIn(18, 18);
      return { channel: `${CHANNELS[i % CHANNELS.length]}${i}`, accountId: `any${pick(50)}` };
    }
    case 5: {
      const i = bindingIn(19, 19);
      return { channel: `${CHANNELS[i % CHANNELS.length]}${i}` };
    }
    default:
      return { channel: 'nowhere', peer: { kind: 'direct', id: u } };
  }
}

/** Calls `op` over `inputs` round-robin for RUN_MS (after a warm-up) and returns operations per second. */
function measure(inputs: InboundMessage[], op: (m: InboundMessage) => RouteResult): number {
  let sink = 0;
  const run = (ms: number) => {
    let n = 0;
    const end = process.hrtime.bigint() + BigInt(ms) * 1_000_000n;
    const start = process.hrtime.bigint();
    while (process.hrtime.bigint() < end) {
      // Batches keep the clock reads out of the measured cost.
      for (let k = 0; k < 1000; k++) sink += op(inputs[(n + k) % inputs.length]).sessionKey.length;
      n += 1000;
    }
    return n / (Number(process.hrtime.bigint() - start) / 1e9);
  };
  run(WARMUP_MS);
  const opsPerSec = run(RUN_MS);
  if (sink === 0) throw new Error('unreachable: keeps the work observable');
  return opsPerSec;
}

async function loadSnapshot(): Promise<{ snapshot: RuntimeSnapshot; ms: number }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-bench-routing-'));
  try {
    const configPath = path.join(dir, 'openclaw.json');
    const agents = Array.from({ length: AGENTS }, (_, i) => `{ id: "agent${i}" }`).join(', ');
    await fs.writeFile(
      configPath,
      `{ agents: { list: [{ id: "main", default: true }, ${agents}] },\n  session: { dmScope: "per-account-channel-peer" },\n  bindings: [\n${bindingsText()}\n] }`,
    );
    const t0 = performance.now();
    const result = await loadConfig({ configPath, stateDir: path.join(dir, 'state'), env: { HOME: dir } });
    const ms = performance.now() - t0;
    if (!result.ok) throw new Error(`bench config invalid: ${JSON.stringify(result.errors.slice(0, 3))}`);
    return { snapshot: result.snapshot, ms };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main(): Promise<void> {
  const { snapshot, ms: loadMs } = await loadSnapshot();
  const config = snapshot.config;
  console.log(`config: ${config.bindings.length} bindings, ${config.agents.length} agents, loadConfig ${loadMs.toFixed(0)} ms`);

  const t0 = performance.now();
  resolveRoute(config, { channel: 'warm' }); // first call compiles the binding index for this config object
  console.log(`compile (first resolve): ${(performance.now() - t0).toFixed(1)} ms`);

  const varied = Array.from({ length: 50_000 }, inbound);
  const hotSet = varied.slice(0, 2_000); // fits the 4000-entry LRU

  // The cache must never change an answer.
  const check = new RoutingService({ current: () => snapshot });
  const tiers = new Map<string, number>();
  for (const m of varied.slice(0, 5_000)) {
    const direct = resolveRoute(config, m);
    const cached = check.resolve(m);
    if (direct.agentId !== cached.agentId || direct.sessionKey !== cached.sessionKey)
      throw new Error(`cache mismatch for ${JSON.stringify(m)}`);
    tiers.set(direct.matchedBy.tier, (tiers.get(direct.matchedBy.tier) ?? 0) + 1);
  }
  console.log(`tier mix of the inbounds: ${[...tiers].map(([t, n]) => `${t} ${(n / 50).toFixed(0)}%`).join(', ')}`);

  const uncached = measure(varied, (m) => resolveRoute(config, m));
  const hotService = new RoutingService({ current: () => snapshot });
  const cached = measure(hotSet, (m) => hotService.resolve(m));
  const thrashService = new RoutingService({ current: () => snapshot });
  const thrash = measure(varied, (m) => thrashService.resolve(m));
  const hot = hotService.stats();
  const cold = thrashService.stats();

  console.log(`uncached resolveRoute (50k distinct inbounds):     ${fmt(uncached)} ops/s`);
  console.log(`cached RoutingService (2k hot inbounds):           ${fmt(cached)} ops/s  (hit rate ${pct(hot.hits, hot.misses)})`);
  console.log(`cached RoutingService (worst case, LRU churns):    ${fmt(thrash)} ops/s  (hit rate ${pct(cold.hits, cold.misses)})`);
  console.log(`ratio cached/uncached: ${(cached / uncached).toFixed(2)}x; churning cache/uncached: ${(thrash / uncached).toFixed(2)}x`);
}

function pct(hits: number, misses: number): string {
  return `${((100 * hits) / Math.max(1, hits + misses)).toFixed(1)}%`;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
