/**
 * `npm run bench:topology` — how long the topology picture of a 50-agent gateway takes.
 *
 * A real gateway (the 50-agent fixture of test/support/topology-fixture.ts: four teams, bindings on four channels,
 * memory grants, three A2A peers) answers over HTTP on loopback:
 *   - GET /admin/topology.svg?denied=true (graph + DOT + Graphviz layout), the first call (which loads the wasm) and the next ones;
 *   - GET /admin/topology?denied=true, the same graph without the picture: the peer measured in the same run;
 *   - and the ratio. Goal: the picture under 1 s (the first call of a process pays for loading and compiling Graphviz).
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { largeTopologyConfig } from '../test/support/topology-fixture';

// The logger level is read when the app modules are imported; set it before the dynamic import below.
process.env.CLAWGATE_LOG_LEVEL = process.env.CLAWGATE_LOG_LEVEL || 'silent';

const AGENTS = 50;
const RUNS = Number(process.env.BENCH_RUNS || 15);
const GOAL_MS = 1000;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(0.9 * xs.length))];

async function timed(url: string): Promise<{ ms: number; bytes: number }> {
  const start = performance.now();
  const res = await fetch(url);
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
  return { ms: performance.now() - start, bytes: Buffer.byteLength(body) };
}

async function main(): Promise<void> {
  const { startGateway } = await import('../src/bootstrap');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-bench-topology-'));
  const configPath = path.join(dir, 'openclaw.json');
  await fs.writeFile(configPath, largeTopologyConfig(AGENTS));
  const gateway = await startGateway({ configPath, stateDir: path.join(dir, 'state'), portOverride: 0, env: { HOME: dir } });
  try {
    const svgUrl = `${gateway.url}/admin/topology.svg?denied=true`;
    const jsonUrl = `${gateway.url}/admin/topology?denied=true`;
    const first = await timed(svgUrl);
    const svg: number[] = [];
    const json: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const s = await timed(svgUrl);
      svg.push(s.ms);
      bytes = s.bytes;
      json.push((await timed(jsonUrl)).ms);
    }
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    console.log(`topology of ${AGENTS} agents (${RUNS} runs, loopback HTTP, denied pairs included)`);
    console.log(`  GET /admin/topology.svg first call (loads Graphviz wasm)  ${fmt(first.ms)}`);
    console.log(
      `  GET /admin/topology.svg            median ${fmt(median(svg))}  p90 ${fmt(p90(svg))}  (${(bytes / 1024).toFixed(0)} KiB)`,
    );
    console.log(`  GET /admin/topology (peer: no picture) median ${fmt(median(json))}  p90 ${fmt(p90(json))}`);
    console.log(`  ratio svg / json (median)          ${(median(svg) / median(json)).toFixed(1)}×`);
    // The first picture of a process also loads Graphviz and lets V8 compile its hot wasm functions; later ones reuse both.
    console.log(
      `  goal: picture < ${GOAL_MS} ms → warm p90 ${p90(svg) < GOAL_MS ? 'met' : 'NOT met'}, first call ${first.ms < GOAL_MS ? 'met' : 'NOT met'}`,
    );
  } finally {
    await gateway.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
