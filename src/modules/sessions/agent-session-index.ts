/**
 * One agent's `sessions.json`: the in-memory copy and the only code that writes the file.
 *
 * Why it looks like this:
 * - The file is always replaced whole via writeFileAtomic (temp + fsync + rename), so a crash leaves either
 *   the old or the new index, never a mix.
 * - Writes are coalesced: at most one write is in flight and at most one is queued; a queued write
 *   serializes the state when it starts, so every change made before `persist()` was called is in the file
 *   when the returned promise resolves. This bounds disk traffic under a burst of changes.
 * - Structural changes (create, label, delivery context) run under a per-agent lock and await their write,
 *   so a session never "exists" for a caller before it exists on disk. `updatedAt` bumps only schedule a
 *   debounced write: losing one to a crash loses a timestamp, not a session.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '@nestjs/common';
import { writeFileAtomic } from '../../common/fs/atomic-write';
import { removeStaleTempFiles } from '../../common/fs/stale-temp-files';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../common/fs/private-files';
import { parseIndexFile } from './session-index-file';
import type { DeliveryContext, SessionEntry } from './session-store.port';

export const INDEX_FILE = 'sessions.json';
/** How long an `updatedAt` bump may wait before the index is rewritten. */
export const TOUCH_DEBOUNCE_MS = 500;

export interface EntryPatch {
  label?: string;
  deliveryContext?: DeliveryContext;
}

export class AgentSessionIndex {
  private readonly entries = new Map<string, SessionEntry>();
  private readonly byLabel = new Map<string, string>();
  /** Keys inserted but not yet on disk: invisible to readers until their write lands. */
  private readonly uncommitted = new Set<string>();
  private lock: Promise<unknown> = Promise.resolve();
  private writing?: Promise<void>;
  private queued?: Promise<void>;
  private timer?: NodeJS.Timeout;

  private constructor(
    readonly agentId: string,
    readonly dir: string,
    private readonly logger: Logger,
  ) {}

  /** Reads the index (a missing file is an empty index) and clears temp files left by a crashed writer. */
  static async open(agentId: string, dir: string, logger: Logger): Promise<AgentSessionIndex> {
    const index = new AgentSessionIndex(agentId, dir, logger);
    const file = path.join(dir, INDEX_FILE);
    const text = await fs.readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
    if (text !== undefined) {
      const parsed = parseIndexFile(text, agentId);
      if (parsed.corrupt) {
        // Atomic writes cannot produce this; something outside the gateway damaged the file. Keep it for
        // the operator instead of overwriting it with the next write.
        const aside = `${file}.corrupt-${Date.now()}`;
        await fs.rename(file, aside);
        logger.error(`${file} is not a valid session index (${parsed.corrupt}); moved to ${aside}, starting empty`);
      }
      for (const problem of parsed.problems) logger.warn(`${file}: ${problem}`);
      for (const entry of parsed.entries) index.add(entry);
    }
    // A writer killed between its temp write and the rename leaves a temp file; the index itself is intact.
    for (const stray of await removeStaleTempFiles(file, { keepOwn: true })) {
      logger.warn(`removed ${stray} left by an interrupted index write`);
    }
    return index;
  }

  get file(): string {
    return path.join(this.dir, INDEX_FILE);
  }

  /** The stored entry (live object: callers must copy before handing it out). */
  get(key: string): SessionEntry | undefined {
    return this.uncommitted.has(key) ? undefined : this.entries.get(key);
  }

  all(): SessionEntry[] {
    return [...this.entries.values()].filter((e) => !this.uncommitted.has(e.sessionKey));
  }

  /** Key of the session holding `label`, committed or being created (both make the label taken). */
  labelHolder(label: string): string | undefined {
    return this.byLabel.get(label);
  }

  /** Runs `fn` after every earlier structural change of this agent has finished. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn);
    this.lock = run.catch(() => undefined);
    return run;
  }

  /** Call under `exclusive`. Resolves once the entry is on disk; on a failed write the entry is gone again. */
  async insert(entry: SessionEntry): Promise<void> {
    this.add(entry);
    this.uncommitted.add(entry.sessionKey);
    try {
      await this.persist();
    } catch (e) {
      this.remove(entry.sessionKey);
      throw e;
    } finally {
      this.uncommitted.delete(entry.sessionKey);
    }
  }

  /** Call under `exclusive`. Applies the patch and writes; a failed write restores the patched fields. */
  async update(key: string, patch: EntryPatch): Promise<void> {
    const entry = this.entries.get(key);
    if (!entry) throw new Error(`no session ${key} in the index of ${this.agentId}`);
    const before = { label: entry.label, deliveryContext: entry.deliveryContext };
    this.applyPatch(entry, patch);
    try {
      await this.persist();
    } catch (e) {
      this.applyPatch(entry, before, true);
      throw e;
    }
  }

  /** Marks activity; the write is debounced (see the file comment). */
  touch(key: string, at: string): void {
    const entry = this.entries.get(key);
    if (!entry || entry.updatedAt >= at) return;
    entry.updatedAt = at;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.persist().catch((e: Error) => this.logger.warn(`could not write ${this.file}: ${e.message}`));
    }, TOUCH_DEBOUNCE_MS);
    // A pending timestamp write must not keep a finished process (or a test run) alive; flush() covers shutdown.
    this.timer.unref();
  }

  /** Writes any pending debounced change now and waits for writes in flight. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.persist();
      return;
    }
    await (this.queued ?? this.writing);
  }

  /** Coalescing writer: joins the queued write if there is one, else queues one behind the write in flight. */
  private persist(): Promise<void> {
    if (this.queued) return this.queued;
    const next: Promise<void> = (this.writing ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        this.queued = undefined;
        this.writing = next;
        try {
          await fs.mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
          await writeFileAtomic(this.file, this.serialize(), { newFileMode: PRIVATE_FILE_MODE });
        } finally {
          if (this.writing === next) this.writing = undefined;
        }
      });
    this.queued = next;
    return next;
  }

  private serialize(): string {
    const out: Record<string, SessionEntry> = {};
    for (const [key, entry] of this.entries) out[key] = entry;
    return `${JSON.stringify(out, null, 2)}\n`;
  }

  private add(entry: SessionEntry): void {
    this.entries.set(entry.sessionKey, entry);
    if (entry.label !== undefined) this.byLabel.set(entry.label, entry.sessionKey);
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    if (entry.label !== undefined && this.byLabel.get(entry.label) === key) this.byLabel.delete(entry.label);
  }

  /** `restore` puts back absent fields too (undefined means "had none"). */
  private applyPatch(entry: SessionEntry, patch: EntryPatch, restore = false): void {
    if ('label' in patch && (restore || patch.label !== undefined)) {
      if (entry.label !== undefined && this.byLabel.get(entry.label) === entry.sessionKey) this.byLabel.delete(entry.label);
      if (patch.label === undefined) delete entry.label;
      else {
        entry.label = patch.label;
        this.byLabel.set(patch.label, entry.sessionKey);
      }
    }
    if ('deliveryContext' in patch && (restore || patch.deliveryContext !== undefined)) {
      if (patch.deliveryContext === undefined) delete entry.deliveryContext;
      else entry.deliveryContext = patch.deliveryContext;
    }
  }
}
