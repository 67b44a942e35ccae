/**
 * Part 4 of `npm run bench:memory`: warm search, `bundled-static` with every model vector filled against
 * `bundled`, on one index and with queries interleaved, so the machine's load moves both alike (parts 2 and 3
 * run each embedder in its own window, minutes apart). BENCH_WARM_CHUNKS [300] real chunks are indexed with the
 * static table and filled in the background; the index files are then copied for an agent on `bundled`, which
 * finds every vector it needs there (same fingerprint) and embeds nothing. Each query is searched by both at
 * the default minScore, the order alternating.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { CONFIG_DEFAULTS } from '../../src/modules/config';
import { AgentMemory, BundledEmbedder, collectionKey, type Embedder, SqliteMemoryIndex, StaticEmbedder } from '../../src/modules/memory';
import { writeRealCorpus } from './real-corpus';

const CHUNKS = Number(process.env.BENCH_WARM_CHUNKS ?? 300);
const WARMUP = 10;

export async function warmSideBySide(dir: string, queriesOf: (corpus: string) => Promise<string[]>, rerank: number): Promise<void> {
  const real = path.join(dir, 'warm-corpus');
  await fs.mkdir(real);
  const corpus = await writeRealCorpus(real, CHUNKS);
  const queries = await queriesOf(real);
  const c = { name: 'notes', kind: 'path' as const, root: real, pattern: '**/*.md' };
  const make = (agent: string, embedder: Embedder) => {
    const memory = new AgentMemory({
      agentId: agent,
      openIndex: () => new SqliteMemoryIndex(path.join(dir, 'warm', agent, 'index.sqlite')),
      embedder: () => embedder,
      debounceMs: () => 60_000,
      logger: { warn: (m: string) => console.warn(m), debug: () => undefined },
    });
    void memory.configure(dir, [{ ...c, key: collectionKey(c) }]);
    return memory;
  };
  const table = new StaticEmbedder({ stateDir: () => path.join(dir, 'warm-state'), rerank: () => rerank });
  const bundled = new BundledEmbedder();
  try {
    await table.ready();
    const filling = make('static', table);
    let t = performance.now();
    await filling.idle();
    const indexS = (performance.now() - t) / 1000;
    t = performance.now();
    await filling.upgraded();
    const fillS = (performance.now() - t) / 1000;
    console.log(
      `corpus: ${corpus.chunks} chunks; static index ${indexS.toFixed(1)} s, then the model's vectors ${fillS.toFixed(1)} s (${(corpus.chunks / fillS).toFixed(1)} chunks/s)`,
    );
    await filling.close();
    await fs.cp(path.join(dir, 'warm', 'static'), path.join(dir, 'warm', 'bundled'), { recursive: true });
    const memories = { bundled: make('bundled', bundled), 'static+upgrade': make('static', table) };
    await Promise.all(Object.values(memories).map((m) => m.upgraded()));
    const times: Record<string, number[]> = { bundled: [], 'static+upgrade': [] };
    const options = { maxResults: 6, maxSnippetChars: 700, minScore: CONFIG_DEFAULTS.memory.qmd.limits.minScore };
    for (const [i, q] of queries.entries()) {
      const order = Object.entries(memories);
      if (i % 2) order.reverse();
      for (const [label, memory] of order) {
        const started = performance.now();
        await memory.search(q, options);
        if (i >= WARMUP) times[label].push(performance.now() - started);
      }
    }
    for (const [label, list] of Object.entries(times)) {
      const s = [...list].sort((a, b) => a - b);
      const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
      console.log(
        `${label.padEnd(15)} warm, interleaved: p50 ${at(0.5).toFixed(2).padStart(7)} ms   p99 ${at(0.99).toFixed(2).padStart(8)} ms (n=${s.length})`,
      );
    }
    await Promise.all(Object.values(memories).map((m) => m.close()));
  } finally {
    await Promise.all([table.close(), bundled.close()]);
  }
}
