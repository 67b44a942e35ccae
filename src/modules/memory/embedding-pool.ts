import { Worker } from 'node:worker_threads';

/** Who is waiting: a search waits for its query vector, so it goes ahead of background indexing. */
export type EmbedPriority = 'query' | 'index';

export interface EmbeddingPoolOptions {
  /**
   * The worker's JavaScript (run with `eval`); it answers `{id, texts}` (or `{id, texts: [], pieces}`) with
   * `{id, dims, vectors}` or `{id, error}`.
   */
  source: string;
  workerData?: unknown;
  /** How many workers may run at once, read at every dispatch (a reload takes effect on the next batch). */
  size: () => number;
  /** A batch still unanswered after this long counts as a crash of its worker [60 s]. */
  jobTimeoutMs?: number;
  /** Hears of crashes and restarts (for the log). */
  onEvent?: (message: string) => void;
}

export interface EmbeddingPoolStats {
  workers: number;
  busy: number;
  queued: number;
  /** Texts embedded since the pool was made. */
  embedded: number;
  /** Workers that died (crash, exit, timeout) and were replaced on demand. */
  crashes: number;
}

interface Job {
  id: number;
  texts: string[];
  /** Vocabulary piece ids, each embedded alone (the static table's build); then `texts` is empty. */
  pieces?: number[];
  priority: EmbedPriority;
  /** Runs that ended with the worker dying; a batch that kills two workers is refused, not retried forever. */
  crashes: number;
  resolve: (vectors: Float32Array[]) => void;
  reject: (err: Error) => void;
  signal?: AbortSignal;
}

interface Slot {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
}

/** A batch that killed this many workers in a row is answered with an error instead of being tried again. */
const MAX_CRASHES_PER_JOB = 2;

/**
 * A small pool of worker threads that embed batches of text. Batches wait in two FIFO queues, queries
 * first; an idle worker takes the next one. A worker that crashes, exits or stops answering is replaced:
 * its batch goes back to the head of the queue once, and fails with a clear error if it kills a second
 * worker. Callers therefore always get an answer. Idle workers are unref'd so they never keep a process
 * alive.
 */
export class EmbeddingPool {
  private readonly slots: Slot[] = [];
  private readonly queues: Record<EmbedPriority, Job[]> = { query: [], index: [] };
  private nextId = 1;
  private closed = false;
  private embedded = 0;
  private crashes = 0;

  constructor(private readonly options: EmbeddingPoolOptions) {}

  /** Embeds one batch (vectors in input order). */
  run(texts: readonly string[], priority: EmbedPriority = 'index', signal?: AbortSignal): Promise<Float32Array[]> {
    if (this.closed) return Promise.reject(new Error('the embedding pool is closed'));
    if (signal?.aborted) return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (!texts.length) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, texts: [...texts], priority, crashes: 0, resolve, reject, signal };
      // An aborted caller's batch leaves the queue; one already running is finished and its answer dropped.
      signal?.addEventListener('abort', () => this.dequeue(job) && reject(new Error('aborted')), { once: true });
      this.queues[priority].push(job);
      this.dispatch();
    });
  }

  /**
   * Embeds many texts as batches of `perBatch` (vectors in input order). Every batch is settled before answering, so
   * a failure does not leave batches running unobserved.
   */
  async runBatched(
    texts: readonly string[],
    perBatch: number,
    priority: EmbedPriority = 'index',
    signal?: AbortSignal,
  ): Promise<Float32Array[]> {
    const batches: Array<Promise<Float32Array[]>> = [];
    for (let i = 0; i < texts.length; i += perBatch) batches.push(this.run(texts.slice(i, i + perBatch), priority, signal));
    const settled = await Promise.allSettled(batches);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.flatMap((s) => (s as PromiseFulfilledResult<Float32Array[]>).value);
  }

  /**
   * Embeds vocabulary pieces by id, one vector per piece, each computed from that piece alone (for the
   * static table). Not counted in `embedded`, which counts texts.
   */
  runPieces(pieces: readonly number[], priority: EmbedPriority = 'index'): Promise<Float32Array[]> {
    if (this.closed) return Promise.reject(new Error('the embedding pool is closed'));
    if (!pieces.length) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queues[priority].push({ id: this.nextId++, texts: [], pieces: [...pieces], priority, crashes: 0, resolve, reject });
      this.dispatch();
    });
  }

  stats(): EmbeddingPoolStats {
    return {
      workers: this.slots.length,
      busy: this.slots.filter((s) => s.job).length,
      queued: this.queues.query.length + this.queues.index.length,
      embedded: this.embedded,
      crashes: this.crashes,
    };
  }

  /** Stops every worker; queued and running batches are answered with an error. */
  async close(): Promise<void> {
    this.closed = true;
    const waiting = [...this.queues.query, ...this.queues.index];
    this.queues.query = [];
    this.queues.index = [];
    for (const job of waiting) job.reject(new Error('the embedding pool is closed'));
    const slots = this.slots.splice(0);
    await Promise.all(
      slots.map(async (slot) => {
        clearTimeout(slot.timer);
        slot.job?.reject(new Error('the embedding pool is closed'));
        slot.job = undefined;
        await slot.worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    if (this.closed) return;
    const size = Math.max(1, Math.floor(this.options.size()));
    // A smaller size after a reload: idle workers beyond it go.
    for (const slot of this.slots.filter((s) => !s.job).slice(0, Math.max(0, this.slots.length - size))) this.retire(slot);
    for (;;) {
      const job = this.queues.query[0] ?? this.queues.index[0];
      if (!job) return;
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < size) slot = this.spawn();
      if (!slot) return;
      this.queues[job.priority].shift();
      this.start(slot, job);
    }
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref(); // a batch in progress keeps the process alive until it is answered
    slot.timer = setTimeout(() => this.fail(slot, `no answer within ${this.timeoutMs()} ms`), this.timeoutMs());
    slot.worker.postMessage(job.pieces ? { id: job.id, texts: [], pieces: job.pieces } : { id: job.id, texts: job.texts });
  }

  private spawn(): Slot {
    const worker = new Worker(this.options.source, { eval: true, workerData: this.options.workerData });
    const slot: Slot = { worker };
    worker.unref();
    worker.on('message', (m: { id: number; dims?: number; vectors?: Float32Array; error?: string }) => this.answer(slot, m));
    worker.on('error', (err) => this.fail(slot, err.message));
    worker.on('exit', (code) => this.fail(slot, `exited with code ${code}`));
    this.slots.push(slot);
    return slot;
  }

  private answer(slot: Slot, m: { id: number; dims?: number; vectors?: Float32Array; error?: string }): void {
    const job = slot.job;
    if (!job || job.id !== m.id) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.worker.unref();
    if (m.error !== undefined || !m.vectors || !m.dims) {
      job.reject(new Error(`bundled embedding failed: ${m.error ?? 'no vectors in the answer'}`));
    } else {
      const { vectors, dims } = m;
      const count = job.pieces?.length ?? job.texts.length;
      this.embedded += job.texts.length;
      job.resolve(Array.from({ length: count }, (_, i) => vectors.slice(i * dims, (i + 1) * dims)));
    }
    this.dispatch();
  }

  /** The worker died or hung: it is replaced on demand, and its batch retried once. */
  private fail(slot: Slot, reason: string): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return; // already handled (an error is followed by an exit)
    this.slots.splice(at, 1);
    clearTimeout(slot.timer);
    void slot.worker.terminate();
    if (this.closed) return;
    this.crashes++;
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      job.crashes++;
      if (job.crashes >= MAX_CRASHES_PER_JOB) {
        job.reject(new Error(`the embedding worker died ${job.crashes} times on the same batch (last: ${reason}); the batch was dropped`));
      } else if (!job.signal?.aborted) {
        this.queues[job.priority].unshift(job);
      } else {
        job.reject(new Error('aborted'));
      }
    }
    this.options.onEvent?.(`embedding worker ${reason}; ${job ? 'its batch is retried on a new worker' : 'it is replaced on demand'}`);
    this.dispatch();
  }

  private retire(slot: Slot): void {
    this.slots.splice(this.slots.indexOf(slot), 1);
    slot.worker.removeAllListeners('exit');
    void slot.worker.terminate();
  }

  private dequeue(job: Job): boolean {
    const queue = this.queues[job.priority];
    const at = queue.indexOf(job);
    if (at < 0) return false;
    queue.splice(at, 1);
    return true;
  }

  private timeoutMs(): number {
    return this.options.jobTimeoutMs ?? 60_000;
  }
}
