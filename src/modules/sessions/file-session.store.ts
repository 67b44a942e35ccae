import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { badRequest } from '../../common/errors/app-error';
import { ConfigStore } from '../config';
import { AgentSessionIndex, INDEX_FILE } from './agent-session-index';
import { assertLabelFree, changes, cleanDeliveryContext, copyEntry, mostRecentFirst, sessionNotFound } from './session-entry-rules';
import { canonicalSessionKey, checkAgentId, checkLabel, checkLimit, labelOrUndefined } from './session-input';
import type {
  NewTranscriptLine,
  SessionCreateOptions,
  SessionEntry,
  SessionHistoryOptions,
  SessionHistory,
  SessionListFilter,
  SessionStore,
  TranscriptLine,
} from './session-store.port';
import {
  appendLine,
  buildLine,
  ensureTranscript,
  readTranscript,
  readTranscriptTail,
  transcriptPath,
  withoutTools,
} from './transcript-file';

export const DEFAULT_LIST_LIMIT = 50;
/** Bound on the "already logged" set for corrupt transcript lines; cleared when full. */
const MAX_REMEMBERED_WARNINGS = 10_000;

/**
 * The embedded SessionStore: per agent, `sessions.json` plus one `<sessionId>.jsonl` per session
 * in the agent's sessions dir. Indexes are loaded lazily and kept in memory; see AgentSessionIndex for the
 * write discipline and transcript-file.ts for the line format.
 * Layout and guarantees: docs/sessions.md#session-store.
 */
@Injectable()
export class FileSessionStore implements SessionStore, OnApplicationShutdown {
  private readonly logger = new Logger('sessions');
  /** Promises, so concurrent first uses of an agent share one load. */
  private readonly indexes = new Map<string, Promise<AgentSessionIndex>>();
  /** Per-session tail of the append chain: appends (and reads after them) run in call order. */
  private readonly chains = new Map<string, Promise<void>>();
  /** Transcripts whose tail this process has already checked for a torn line. */
  private readonly tailChecked = new Set<string>();
  private readonly loggedWarnings = new Set<string>();

  constructor(private readonly config: ConfigStore) {}

  async get(sessionKey: string): Promise<SessionEntry | undefined> {
    const entry = await this.find(canonicalSessionKey(sessionKey));
    return entry && copyEntry(entry);
  }

  async getOrCreate(sessionKey: string, init: SessionCreateOptions = {}): Promise<SessionEntry> {
    const { key, agentId } = canonicalSessionKey(sessionKey);
    const label = init.label === undefined ? undefined : checkLabel(init.label);
    const spawnedBy = init.spawnedBy === undefined ? undefined : canonicalSessionKey(init.spawnedBy, 'spawnedBy').key;
    if (spawnedBy === key) throw badRequest('a session cannot be spawned by itself');
    const deliveryContext = init.deliveryContext === undefined ? undefined : cleanDeliveryContext(init.deliveryContext);
    const index = await this.indexFor(agentId, true);

    const known = index.get(key);
    if (known && !changes(known, label, deliveryContext)) return copyEntry(known);
    return index.exclusive(async () => {
      const current = index.get(key);
      if (current) {
        // An existing session takes the caller's label and latest delivery route; lineage never changes.
        if (label !== undefined && label !== current.label) assertLabelFree(index, label, key);
        if (changes(current, label, deliveryContext)) await index.update(key, { label, deliveryContext });
        return copyEntry(current);
      }
      if (label !== undefined) assertLabelFree(index, label, key);
      const now = this.now().toISOString();
      const entry: SessionEntry = {
        sessionKey: key,
        // Never derived from user text: the stem becomes a file name.
        sessionId: randomUUID(),
        agentId,
        ...(label !== undefined ? { label } : {}),
        ...(spawnedBy !== undefined ? { spawnedBy } : {}),
        createdAt: now,
        updatedAt: now,
        ...(deliveryContext ? { deliveryContext } : {}),
      };
      const file = transcriptPath(index.dir, entry.sessionId);
      await ensureTranscript(file);
      this.tailChecked.add(file);
      await index.insert(entry);
      return copyEntry(entry);
    });
  }

  async list(filter: SessionListFilter = {}): Promise<SessionEntry[]> {
    const limit = checkLimit(filter.limit, DEFAULT_LIST_LIMIT) ?? DEFAULT_LIST_LIMIT;
    const agentIds = filter.agentId !== undefined ? [checkAgentId(filter.agentId)] : [...this.config.current().agentsById.keys()];
    const since = this.activeSince(filter.activeMinutes);
    // An impossible label matches nothing; the label filter is a lookup, not a write.
    const label = filter.label === undefined ? undefined : labelOrUndefined(filter.label);
    if (filter.label !== undefined && label === undefined) return [];

    const found: SessionEntry[] = [];
    for (const agentId of agentIds) {
      const index = await this.indexFor(agentId, false);
      if (!index) continue;
      if (label === undefined) found.push(...index.all());
      else {
        const holder = index.labelHolder(label);
        const entry = holder === undefined ? undefined : index.get(holder);
        if (entry) found.push(entry);
      }
    }
    return found
      .filter((e) => since === undefined || Date.parse(e.updatedAt) >= since)
      .sort(mostRecentFirst)
      .slice(0, limit)
      .map(copyEntry);
  }

  async setLabel(sessionKey: string, rawLabel: string): Promise<SessionEntry> {
    const { key, agentId } = canonicalSessionKey(sessionKey);
    const label = checkLabel(rawLabel);
    const index = await this.indexFor(agentId, false);
    if (!index) throw sessionNotFound(key);
    return index.exclusive(async () => {
      const entry = index.get(key);
      if (!entry) throw sessionNotFound(key);
      if (entry.label !== label) {
        assertLabelFree(index, label, key);
        await index.update(key, { label });
      }
      return copyEntry(entry);
    });
  }

  async resolveLabel(agentId: string, rawLabel: string): Promise<string | undefined> {
    const index = await this.indexFor(checkAgentId(agentId), false);
    const label = labelOrUndefined(rawLabel);
    if (!index || label === undefined) return undefined;
    const holder = index.labelHolder(label);
    // A label whose session is still being written is not resolvable yet.
    return holder !== undefined && index.get(holder) ? holder : undefined;
  }

  async isSpawnedBy(targetKey: string, ancestorKey: string): Promise<boolean> {
    const target = canonicalSessionKey(targetKey, 'target session key');
    const ancestor = canonicalSessionKey(ancestorKey, 'ancestor session key').key;
    // A hand-edited index can contain a spawnedBy cycle; `seen` ends the walk instead of looping forever.
    const seen = new Set<string>([target.key]);
    let parent = (await this.find(target))?.spawnedBy;
    while (parent !== undefined) {
      if (parent === ancestor) return true;
      if (seen.has(parent)) return false;
      seen.add(parent);
      parent = (await this.find(canonicalSessionKey(parent)))?.spawnedBy;
    }
    return false;
  }

  append(sessionKey: string, line: NewTranscriptLine): Promise<TranscriptLine> {
    let key: string;
    let full: TranscriptLine;
    try {
      key = canonicalSessionKey(sessionKey).key;
      full = buildLine(line, this.now());
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    // Queued synchronously, before any await, so the chain order is the call order.
    return this.inOrder(key, async () => {
      const entry = await this.getOrCreate(key);
      const index = await this.indexFor(entry.agentId, true);
      const file = transcriptPath(index.dir, entry.sessionId);
      const { repaired } = await appendLine(file, full, !this.tailChecked.has(file)).catch((e: unknown) => {
        // A failed write (e.g. ENOSPC) may have left part of the line: check the tail again next time.
        this.tailChecked.delete(file);
        throw e;
      });
      this.tailChecked.add(file);
      if (repaired) this.logger.warn(`${file}: the last line was cut short by an interrupted write; appending on a new line`);
      index.touch(key, this.now().toISOString());
      return full;
    });
  }

  async history(sessionKey: string, options: SessionHistoryOptions = {}): Promise<SessionHistory> {
    const canonical = canonicalSessionKey(sessionKey);
    const limit = checkLimit(options.limit, undefined);
    // Read-your-writes: appends already requested for this session land before we read.
    await this.chains.get(canonical.key);
    const entry = await this.find(canonical);
    if (!entry) throw sessionNotFound(canonical.key);
    const index = await this.indexFor(entry.agentId, false);
    const file = transcriptPath(index!.dir, entry.sessionId);
    const filter = (all: TranscriptLine[]) => (options.includeTools === false ? withoutTools(all) : all);
    let parsed = limit === undefined ? { ...(await readTranscript(file)), complete: true } : await readTranscriptTail(file, limit);
    // Filtered-out tool lines may leave fewer than `limit`: widen the window until enough or the whole file.
    for (let want = (limit ?? 0) * 2; limit !== undefined && filter(parsed.lines).length < limit && !parsed.complete; want *= 2) {
      parsed = await readTranscriptTail(file, want);
    }
    const warnings = parsed.missing ? [`transcript ${path.basename(file)} is missing`] : parsed.warnings;
    // Line numbers of a tail read are relative to the window, so only whole reads are de-duplicated by number.
    if (parsed.complete) this.logOnce(file, parsed.skipped, parsed.warnings);
    let lines = filter(parsed.lines);
    if (limit !== undefined) lines = lines.slice(-limit);
    return { lines, warnings };
  }

  /**
   * Lets appends already requested finish, then writes pending debounced index changes. Called on shutdown;
   * tests call it to settle the disk.
   */
  async flush(): Promise<void> {
    await Promise.all(this.chains.values());
    const results = await Promise.allSettled([...this.indexes.values()].map(async (p) => (await p).flush()));
    for (const r of results) {
      if (r.status === 'rejected') this.logger.warn(`could not flush a session index: ${(r.reason as Error).message}`);
    }
  }

  /**
   * The last lifecycle hook (after every module's onModuleDestroy and the HTTP server's close), so writes
   * that other modules make while stopping still reach the disk before the process exits.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** Overridable clock (tests). */
  protected now(): Date {
    return new Date();
  }

  private async find({ key, agentId }: { key: string; agentId: string }): Promise<SessionEntry | undefined> {
    return (await this.indexFor(agentId, false))?.get(key);
  }

  /**
   * The agent's index, loaded on first use. Reads of an agent that is neither configured nor on disk get
   * `undefined` instead of a cached empty index, so lookups of arbitrary ids cost no memory.
   */
  private indexFor(agentId: string, create: true): Promise<AgentSessionIndex>;
  private indexFor(agentId: string, create: boolean): Promise<AgentSessionIndex | undefined>;
  private async indexFor(agentId: string, create: boolean): Promise<AgentSessionIndex | undefined> {
    const cached = this.indexes.get(agentId);
    if (cached) return cached;
    const dir = this.sessionsDir(agentId);
    if (!create && !this.config.current().agentsById.has(agentId) && !(await exists(path.join(dir, INDEX_FILE)))) {
      return undefined;
    }
    let loading = this.indexes.get(agentId);
    if (!loading) {
      const started = AgentSessionIndex.open(agentId, dir, this.logger);
      loading = started;
      this.indexes.set(agentId, started);
      // A failed load (permissions, I/O) is retried by the next call instead of being cached.
      started.catch(() => {
        if (this.indexes.get(agentId) === started) this.indexes.delete(agentId);
      });
    }
    return loading;
  }

  /** From the current snapshot; an agent no longer configured keeps its sessions at the default place. */
  private sessionsDir(agentId: string): string {
    return this.config.current().agentsById.get(agentId)?.sessionsDir ?? path.join(this.config.stateDir, 'agents', agentId, 'sessions');
  }

  private activeSince(activeMinutes: number | undefined): number | undefined {
    if (activeMinutes === undefined) return undefined;
    if (typeof activeMinutes !== 'number' || !Number.isFinite(activeMinutes) || activeMinutes <= 0) {
      throw badRequest(`activeMinutes must be a positive number (got ${String(activeMinutes)})`);
    }
    return this.now().getTime() - activeMinutes * 60_000;
  }

  private inOrder<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const run = (this.chains.get(key) ?? Promise.resolve()).then(fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.chains.set(key, tail);
    void tail.then(() => {
      if (this.chains.get(key) === tail) this.chains.delete(key);
    });
    return run;
  }

  /** Each corrupt line is logged once per process, however often its history is read. */
  private logOnce(file: string, skipped: number[], warnings: string[]): void {
    skipped.forEach((lineNo, i) => {
      const id = `${file}:${lineNo}`;
      if (this.loggedWarnings.has(id)) return;
      if (this.loggedWarnings.size >= MAX_REMEMBERED_WARNINGS) this.loggedWarnings.clear();
      this.loggedWarnings.add(id);
      this.logger.warn(`${file}: ${warnings[i]}`);
    });
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
