/**
 * The worker that embeds texts with the static table (static-embedder.ts), so that indexing at a few hundred
 * chunks a second does not take the event loop that serves requests. Plain JavaScript run with `eval`, like
 * the bundled model's worker (bundled-model-worker.ts), and spoken to through the same pool protocol:
 * `{id, texts}` in, `{id, dims, vectors}` or `{id, error}` out.
 *
 * The table's vectors and weights arrive as SharedArrayBuffers (one copy in memory however many workers);
 * the tokenizer is the model library's, built here from the vocabulary file. The arithmetic is
 * static-table.ts#embedPieces and StaticEmbedder#pieces, repeated here because the worker loads no
 * TypeScript; a spec checks both give the same vectors.
 */
export const STATIC_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
if (process.platform === 'linux') {
  try {
    require('node:os').setPriority(0, workerData.nice);
  } catch {
    // not permitted: the worker runs at the process's priority
  }
}
const { EmbeddingsModel } = require(workerData.embeddings);
const vocabulary = workerData.vocabularyData || JSON.parse(require('node:fs').readFileSync(workerData.vocabulary, 'utf8'));
const { tokenizer } = new EmbeddingsModel({ vocabulary, model: undefined });
const dims = workerData.dims;
const vectors = new Float32Array(workerData.vectors);
const weights = new Float32Array(workerData.weights);
const words = new Map();

function pieces(text) {
  const ids = [];
  for (const word of text.split(/\\s+/)) {
    if (!word) continue;
    let known = words.get(word);
    if (!known) {
      if (words.size >= workerData.wordCache) words.clear();
      known = tokenizer.encode(word);
      words.set(word, known);
    }
    for (const id of known) ids.push(id);
  }
  return ids;
}

function embedInto(ids, out, at) {
  for (const id of ids) {
    const w = id >= 0 && id < weights.length ? weights[id] : 0;
    if (!w) continue;
    const base = id * dims;
    for (let d = 0; d < dims; d++) out[at + d] += w * vectors[base + d];
  }
  let norm = 0;
  for (let d = 0; d < dims; d++) norm += out[at + d] * out[at + d];
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let d = 0; d < dims; d++) out[at + d] *= inv;
  }
}

parentPort.on('message', ({ id, texts }) => {
  try {
    const out = new Float32Array(texts.length * dims);
    texts.forEach((text, i) => embedInto(pieces(text), out, i * dims));
    parentPort.postMessage({ id, dims, vectors: out }, [out.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;
