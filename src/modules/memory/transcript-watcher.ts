import type { SessionStore, TranscriptAppended } from '../sessions';
import type { ChangeWatcher, WatchOptions } from './collection-source';
import { DebounceTimer } from './debounce-timer';
import { MemoryCollection, sessionDocumentPath } from './memory-collections';

/**
 * The live feed of session collections: what chokidar is for a directory, the store's append events are
 * for sessions. Each session is debounced on its own (a busy chat does not hold back a quiet one), then
 * reported as its document path in every collection on that agent's session dir.
 */
export class TranscriptWatcher implements ChangeWatcher {
  private readonly pending = new Map<string, DebounceTimer>();
  private unsubscribe?: () => void;

  constructor(
    private readonly store: SessionStore,
    private readonly collections: readonly MemoryCollection[],
    private readonly options: WatchOptions,
  ) {}

  async start(): Promise<void> {
    if (this.collections.length && !this.unsubscribe) this.unsubscribe = this.store.onAppend((event) => this.onAppend(event));
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const timer of this.pending.values()) timer.cancel();
    this.pending.clear();
  }

  /** Called inside the store's commit callback: only note the session, the work happens after the debounce. */
  private onAppend(event: TranscriptAppended): void {
    if (!this.collections.some((c) => c.transcriptsOf === event.agentId)) return;
    let timer = this.pending.get(event.sessionKey);
    if (!timer) {
      timer = new DebounceTimer(this.options.debounceMs, () => this.flush(event));
      this.pending.set(event.sessionKey, timer);
    }
    timer.touch();
  }

  private flush(event: TranscriptAppended): void {
    this.pending.delete(event.sessionKey);
    const covering = this.collections.filter((c) => c.transcriptsOf === event.agentId);
    const files = new Set(covering.map((c) => sessionDocumentPath(c, event.sessionId)));
    this.options.onBatch({ files, rescan: new Set() });
  }
}
