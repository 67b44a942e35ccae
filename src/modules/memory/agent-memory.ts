import { Logger } from '@nestjs/common';
import { ChangeBatch, ChangeWatcher, CollectionSources } from './collection-source';
import { addCounts, emptyCounts, syncCollection, SyncCounts, syncPath } from './collection-sync';
import type { Embedder } from './embedder.port';
import { FileSource } from './file-source';
import { MemoryCollection, relativeInCollection, sameCollections } from './memory-collections';
import type { MemoryIndex } from './memory-index.port';
import { MemorySearcher, SearchHit, SearchOptions } from './memory-searcher';
import { ModelUpgrade } from './model-upgrade';
import { SharedEmbeddings } from './shared-embeddings';

export interface AgentMemoryDeps {
  agentId: string;
  openIndex: () => MemoryIndex;
  /** The current embedder (undefined: keyword only); read at every use, so a reload takes effect at once. */
  embedder: () => Embedder | undefined;
  debounceMs: () => number;
  logger: Pick<Logger, 'warn' | 'debug'>;
  /** Where each collection's documents come from [files only: no collection reads the session store]. */
  sources?: CollectionSources;
  /** Shared by every agent of a gateway so a text indexed by several agents is embedded once [own]. */
  sharedEmbeddings?: SharedEmbeddings;
}

/** Pending vectors are requested this many at a time (the embedder batches further by size). */
const EMBED_BATCH = 32;

/**
 * One agent's memory: its index, its collections, the watchers that keep the index current (chokidar for
 * directories, the session store's append events for session collections), and the background pass that
 * embeds new chunks. Opened lazily on first use. All index writes go through one promise chain, so two
 * syncs of the same document can never interleave their read and write.
 */
export class AgentMemory {
  private index?: MemoryIndex;
  private collections: MemoryCollection[] = [];
  private workspace = '';
  private watcher?: ChangeWatcher;
  private readonly sources: CollectionSources;
  private readonly sharedEmbeddings: SharedEmbeddings;
  private opened?: Promise<void>;
  private chain: Promise<unknown> = Promise.resolve();
  private embedding?: Promise<void>;
  private embedAgain = false;
  private closed = false;
  private lastEmbedError?: string;
  private readonly upgrade: ModelUpgrade;

  constructor(private readonly deps: AgentMemoryDeps) {
    this.sources = deps.sources ?? new CollectionSources(new FileSource());
    this.sharedEmbeddings = deps.sharedEmbeddings ?? new SharedEmbeddings();
    this.upgrade = new ModelUpgrade({
      agentId: deps.agentId,
      index: () => this.requireIndex(),
      embedder: deps.embedder,
      sharedEmbeddings: this.sharedEmbeddings,
      isClosed: () => this.closed,
      logger: deps.logger,
    });
  }

  get agentId(): string {
    return this.deps.agentId;
  }

  /** Sets the collections (before first use, or after a reload); a change resyncs and re-watches. */
  configure(workspace: string, collections: MemoryCollection[]): Promise<void> {
    const changed = !sameCollections(collections, this.collections);
    this.workspace = workspace;
    this.collections = collections;
    if (!changed || !this.opened) return Promise.resolve();
    return this.enqueue(async () => {
      await this.restartWatcher();
      return this.syncAll(false);
    }).then(() => undefined);
  }

  /** Opens the index and runs the first sync (keyword index complete; vectors follow in the background). */
  ready(): Promise<void> {
    this.opened ??= this.enqueue(async () => {
      this.index = this.deps.openIndex();
      // The watcher starts before the scan, so a change made during the scan is caught afterwards.
      await this.restartWatcher();
      await this.syncAll(false);
    }).then(
      () => undefined,
      (err: Error) => {
        this.opened = undefined; // the next use tries again (e.g. the disk was full)
        throw err;
      },
    );
    return this.opened;
  }

  currentCollections(): readonly MemoryCollection[] {
    return this.collections;
  }

  get workspaceDir(): string {
    return this.workspace;
  }

  async search(query: string, options: SearchOptions): Promise<SearchHit[]> {
    await this.ready();
    await this.chain; // changes already reported are visible to a search that comes after them
    this.upgrade.resume();
    const searcher = new MemorySearcher(this.requireIndex(), this.deps.embedder(), this.deps.logger);
    return searcher.search(query, this.collections, this.workspace, options);
  }

  /**
   * Syncs every collection and resolves when keyword and vector indexes are both complete. `force` [true]
   * re-reads every document; without it unchanged ones (size/mtime or session version, then content hash)
   * are skipped.
   */
  async reindex(force = true): Promise<SyncCounts & { durationMs: number }> {
    const started = Date.now();
    await this.ready();
    const counts = await this.enqueue(() => this.syncAll(force));
    await this.idle();
    return { ...counts, durationMs: Date.now() - started };
  }

  /** Waits for queued syncs and the embedding pass to finish. */
  async idle(): Promise<void> {
    await this.ready();
    for (;;) {
      await this.chain;
      const pass = this.embedding;
      if (!pass) return;
      await pass;
    }
  }

  /**
   * Waits for the embedding pass and then for the background pass that gives every chunk the rescoring
   * model's vector (bundled-static), which idle() does not wait for.
   */
  async upgraded(): Promise<void> {
    await this.idle();
    await this.upgrade.settled();
  }

  /** Chunks still waiting for the rescoring model's vector (bundled-static with rerank > 0; else 0). */
  awaitingModel(): number {
    return this.index ? this.upgrade.awaiting() : 0;
  }

  get upgradeError(): string | undefined {
    return this.upgrade.error;
  }

  stats(): ReturnType<MemoryIndex['stats']> {
    return this.index?.stats(this.deps.embedder()?.fingerprint) ?? [];
  }

  get embedError(): string | undefined {
    return this.lastEmbedError;
  }

  /** The embedder changed: vectors of the old one are dropped and everything is embedded again. */
  embedderChanged(): void {
    if (this.index) this.kickEmbedding();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.watcher?.close();
    await this.chain.catch(() => undefined);
    // A job already running when close began (the first open, a reconfigure) may have started a new watcher.
    await this.watcher?.close();
    this.watcher = undefined;
    await this.embedding?.catch(() => undefined);
    await this.upgrade.settled();
    this.index?.close();
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.chain.then(() => {
      if (this.closed) throw new Error(`memory of agent ${this.agentId} is closed`);
      return job();
    });
    this.chain = run.catch((err: Error) => this.deps.logger.warn(`memory sync of ${this.agentId} failed: ${err.message}`));
    return run;
  }

  private async syncAll(force: boolean): Promise<SyncCounts> {
    const index = this.requireIndex();
    const counts = emptyCounts();
    counts.removed += index.retainCollections(this.collections.map((c) => c.key));
    for (const c of this.collections) addCounts(counts, await syncCollection(index, c, this.sources.for(c), force));
    this.report(counts);
    this.kickEmbedding();
    return counts;
  }

  private onBatch(batch: ChangeBatch): void {
    void this.enqueue(async () => {
      const index = this.requireIndex();
      const counts = emptyCounts();
      for (const c of this.collections) {
        if (batch.rescan.has(c.key)) addCounts(counts, await syncCollection(index, c, this.sources.for(c)));
      }
      for (const file of batch.files) {
        for (const c of this.collections) {
          if (batch.rescan.has(c.key)) continue;
          // A file that no longer matches (renamed away, or deleted) is still removed from this collection.
          if (relativeInCollection(c, file) !== undefined) addCounts(counts, await syncPath(index, c, this.sources.for(c), file));
        }
      }
      this.report(counts);
      this.kickEmbedding();
    });
  }

  private async restartWatcher(): Promise<void> {
    await this.watcher?.close();
    this.watcher = this.sources.watcher(this.collections, {
      debounceMs: this.deps.debounceMs,
      onBatch: (batch) => this.onBatch(batch),
      onError: (err) => this.deps.logger.warn(`memory watcher of ${this.agentId}: ${err.message}`),
    });
    await this.watcher.start();
  }

  private kickEmbedding(): void {
    if (this.closed) return;
    if (this.embedding) {
      this.embedAgain = true;
      return;
    }
    this.embedding = this.embedPending()
      .catch((err: Error) => {
        this.lastEmbedError = err.message;
        this.deps.logger.warn(`embedding memory of ${this.agentId} failed (keyword search still works): ${err.message}`);
      })
      .finally(() => {
        this.embedding = undefined;
        if (this.embedAgain) {
          this.embedAgain = false;
          this.kickEmbedding();
        } else this.upgrade.kick(); // the model's vectors come after every chunk is searchable
      });
  }

  private async embedPending(): Promise<void> {
    const index = this.requireIndex();
    let cursor = 0;
    for (;;) {
      const embedder = this.deps.embedder();
      // The rescoring model's vectors stay beside the embedder's own (even while rerank is 0: it is hot).
      const model = embedder?.reranker?.model;
      index.useFingerprint(embedder?.fingerprint, model ? [model.fingerprint] : []);
      if (!embedder || this.closed) return;
      const batch = index.pendingEmbeddings(embedder.fingerprint, EMBED_BATCH, cursor);
      if (!batch.length) {
        if (cursor === 0) {
          index.pruneEmbeddings();
          this.lastEmbedError = undefined;
          return;
        }
        cursor = 0; // one more pass from the start catches chunks that became pending behind the cursor
        continue;
      }
      cursor = batch[batch.length - 1].chunkId;
      const vectors = await this.sharedEmbeddings.embed(embedder, batch, (hashes) => index.storedHashes(embedder.fingerprint, hashes));
      if (this.closed) return;
      // Settings may have changed while the model worked: store only under the fingerprint that made them.
      if (this.deps.embedder()?.fingerprint !== embedder.fingerprint) continue;
      index.storeEmbeddings(
        embedder.fingerprint,
        [...vectors].map(([hash, vector]) => ({ hash, vector })),
      );
    }
  }

  private report(counts: SyncCounts): void {
    for (const s of counts.skipped) this.deps.logger.warn(`memory of ${this.agentId}: skipped ${s}`);
    if (counts.indexed || counts.removed) {
      this.deps.logger.debug(`memory of ${this.agentId}: ${counts.indexed} file(s) indexed, ${counts.removed} removed`);
    }
  }

  private requireIndex(): MemoryIndex {
    if (!this.index) throw new Error(`memory of agent ${this.agentId} is not open`);
    return this.index;
  }
}
