import type { Embedder } from './embedder.port';
import type { MemoryIndex } from './memory-index.port';
import { dot } from './vector-matrix';

/**
 * The model's cosine of the query with each chunk (bundled-static's rescoring): a chunk whose model vector is
 * stored in the index is read, the others are embedded in the same model call as the query and stored, so no
 * chunk text goes through the model twice — not on the next search, not in the background upgrade.
 */
export async function modelSimilarities(
  index: MemoryIndex,
  model: Embedder,
  query: string,
  chunks: ReadonlyArray<{ id: number; text: string }>,
): Promise<number[]> {
  const stored = index.storedVectors(
    model.fingerprint,
    chunks.map((c) => c.id),
  );
  const missing = chunks.filter((c) => !stored.has(c.id));
  const [q, ...fresh] = await model.embed([query, ...missing.map((c) => c.text)], { priority: 'query' });
  missing.forEach((c, i) => stored.set(c.id, fresh[i]));
  if (missing.length)
    index.storeChunkVectors(
      model.fingerprint,
      missing.map((c, i) => ({ id: c.id, vector: fresh[i] })),
    );
  return chunks.map((c) => dot(stored.get(c.id)!, q));
}
