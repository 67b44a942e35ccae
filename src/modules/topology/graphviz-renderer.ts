import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Worker } from 'node:worker_threads';

/** A layout that takes longer than this is abandoned (the worker is replaced): a picture is never worth a stuck thread. */
const RENDER_TIMEOUT_MS = 30_000;

/**
 * The worker: Graphviz compiled to WebAssembly (@viz-js/viz), loaded once when the worker starts and reused for
 * every picture. Plain JavaScript run with `eval`, so it works from the build and from the TypeScript sources
 * alike; the package is required by the absolute path the main thread resolved.
 * Protocol: `{id, dot}` in; `{id, svg}` or `{id, error}` out.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ready = require(workerData.vizPath).instance();
parentPort.on('message', async ({ id, dot }) => {
  try {
    const viz = await ready;
    const result = viz.render(dot, { format: 'svg', engine: 'dot' });
    if (result.status === 'success') parentPort.postMessage({ id, svg: result.output });
    else parentPort.postMessage({ id, error: result.errors.map((e) => e.message).join('; ') });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

interface Pending {
  resolve: (svg: string) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * DOT text → SVG with the dot engine, in a worker thread started by the first picture and kept: a layout (tens
 * of ms warm, about a second for the first one of a process while V8 compiles Graphviz) never holds the event
 * loop that serves requests. A worker that fails or exits is dropped with its pending pictures; the next picture
 * starts a new one. A layout Graphviz refuses is a bug of the DOT builder, never the caller's: it surfaces as a 500.
 */
@Injectable()
export class GraphvizRenderer implements OnApplicationShutdown {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  render(dot: string): Promise<string> {
    const worker = this.worker ?? this.start();
    const id = ++this.nextId;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(worker, new Error(`graphviz took longer than ${RENDER_TIMEOUT_MS} ms`)), RENDER_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      worker.ref(); // kept alive while a picture is under way, unref'd again once none is
      worker.postMessage({ id, dot });
    });
  }

  async onApplicationShutdown(): Promise<void> {
    const worker = this.worker;
    if (worker) {
      this.fail(worker, new Error('the gateway is shutting down'));
      await worker.terminate();
    }
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { vizPath: require.resolve('@viz-js/viz') } });
    worker.unref();
    worker.on('message', (message: { id: number; svg?: string; error?: string }) => {
      const job = this.pending.get(message.id);
      if (!job) return;
      this.pending.delete(message.id);
      clearTimeout(job.timer);
      if (!this.pending.size) worker.unref();
      if (message.svg !== undefined) job.resolve(message.svg);
      else job.reject(new Error(`graphviz could not lay out the topology: ${message.error ?? 'no answer'}`));
    });
    worker.on('error', (err) => this.fail(worker, err));
    worker.on('exit', (code) => this.fail(worker, new Error(`the graphviz worker exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  /** Drops the worker and rejects what it still had to draw. */
  private fail(worker: Worker, err: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    void worker.terminate();
    for (const job of this.pending.values()) {
      clearTimeout(job.timer);
      job.reject(err);
    }
    this.pending.clear();
  }
}
