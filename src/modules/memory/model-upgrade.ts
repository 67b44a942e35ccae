import type { Logger } from '@nestjs/common';
import type { Embedder } from './embedder.port';
import type { MemoryIndex } from './memory-index.port';
import type { SharedEmbeddings } from './shared-embeddings';

/** Chunks handed to the model per step; the model's pool batches further and lets a search's texts go first. */
const BATCH = 32;

/**
 * The model whose vectors an embedder's searches rescore with and may store (bundled-static with
 * `memory.embeddings.rerank` > 0: the bundled model), or undefined.
 */
export function upgradeModel(embedder: Embedder | undefined): Embedder | undefined {
  const reranker = embedder?.reranker;
  return reranker?.model && reranker.depth() > 0 ? reranker.model : undefined;
}

export interface ModelUpgradeDeps {
  agentId: string;
  index: () => MemoryIndex;
  embedder: () => Embedder | undefined;
  sharedEmbeddings: SharedEmbeddings;
  isClosed: () => boolean;
  logger: Pick<Logger, 'warn'>;
}

/**
 * The background pass that gives every chunk the rescoring model's vector after the embedder's own
 * (docs/memory.md#the-static-embedder-bundled-static). It runs after indexing, never before it: the index
 * is searchable (static vectors, rescored) at once, and once no chunk awaits the model, a search reads the
 * model's own vector list and pays only for its query. The model works in its worker thread at low priority,
 * so the event loop only stores the vectors. A failure leaves the search on the rescoring path; the next
 * sync tries again.
 */
export class ModelUpgrade {
  private running?: Promise<void>;
  private again = false;
  private lastError?: string;

  constructor(private readonly deps: ModelUpgradeDeps) {}

  get error(): string | undefined {
    return this.lastError;
  }

  /** Chunks of the index still waiting for the model's vector (0 when there is no model to wait for). */
  awaiting(): number {
    const model = upgradeModel(this.deps.embedder());
    return model ? this.deps.index().missingVectors(model.fingerprint) : 0;
  }

  kick(): void {
    if (this.deps.isClosed() || !upgradeModel(this.deps.embedder())) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((err: Error) => {
        this.lastError = err.message;
        this.deps.logger.warn(
          `the model's vectors for the memory of ${this.deps.agentId} failed (search rescores instead): ${err.message}`,
        );
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /**
   * Starts a pass if chunks still wait and none runs, unless the last one failed (the next sync retries that):
   * a search calls it, so turning `rerank` on, a hot setting, fills the vectors without waiting for a change.
   */
  resume(): void {
    if (!this.running && this.lastError === undefined && this.awaiting() > 0) this.kick();
  }

  /** Resolves when no pass runs (every chunk has the model's vector, or the last pass failed). */
  async settled(): Promise<void> {
    for (let pass = this.running; pass; pass = this.running) await pass;
  }

  private async pass(): Promise<void> {
    const index = this.deps.index();
    let cursor = 0;
    for (;;) {
      const model = upgradeModel(this.deps.embedder());
      if (!model || this.deps.isClosed()) return;
      const batch = index.pendingEmbeddings(model.fingerprint, BATCH, cursor);
      if (!batch.length) {
        if (cursor === 0) {
          this.lastError = undefined;
          return;
        }
        cursor = 0; // chunks indexed behind the cursor meanwhile
        continue;
      }
      cursor = batch[batch.length - 1].chunkId;
      const vectors = await this.deps.sharedEmbeddings.embed(model, batch, (hashes) => index.storedHashes(model.fingerprint, hashes));
      if (this.deps.isClosed()) return;
      if (upgradeModel(this.deps.embedder())?.fingerprint !== model.fingerprint) continue;
      index.storeEmbeddings(
        model.fingerprint,
        [...vectors].map(([hash, vector]) => ({ hash, vector })),
      );
    }
  }
}
