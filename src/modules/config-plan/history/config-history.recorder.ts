import * as path from 'node:path';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { currentConfigActor, type ConfigChangeSource } from '../../../common/auth/config-actor';
import { ConfigStore, type RuntimeSnapshot } from '../../config';
import { ConfigPlanService } from '../config-plan.service';
import { takeCliEditNote } from './cli-edit-note';
import { CONFIG_HISTORY_STORE, type ConfigHistoryStore, type HistoryFile } from './config-history-store.port';
import { impactSummary } from './impact-summary';

interface Attribution {
  source: ConfigChangeSource;
  subject: string;
}

/**
 * Records every applied revision: those of the admin API (the caller's identity, `api` or `rollback`), of the
 * CLI (its note), and of file edits the watcher or a reload picked up (`file`), plus the one found at start
 * when it differs from the last one recorded. Records are written one after another, off the apply path. With
 * replicas sharing the history (PostgreSQL) each applies an edit of the shared config; the store keeps one record.
 */
@Injectable()
export class ConfigHistoryRecorder implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger('config-history');
  private queue: Promise<void> = Promise.resolve();
  private unsubscribe?: () => void;
  private undescribe?: () => void;
  /** The summary of each applied snapshot, computed once for the `config.applied` line and the history record. */
  private readonly summaries = new WeakMap<RuntimeSnapshot, Promise<string>>();

  constructor(
    private readonly store: ConfigStore,
    private readonly planner: ConfigPlanService,
    /** The history `gateway.state` names, opened with the module graph (a PostgreSQL server that cannot be reached fails the start). */
    @Inject(CONFIG_HISTORY_STORE) private readonly history: ConfigHistoryStore,
  ) {}

  onApplicationBootstrap(): void {
    this.undescribe = this.store.describeChangesWith((prev, next) => this.summaryOf(prev, next));
    // Read synchronously in the listener: the actor is the one of the write that caused the swap.
    this.unsubscribe = this.store.onApplied((prev, next) => {
      const actor = currentConfigActor();
      this.enqueue(async () => this.record(prev, next, actor ?? (await this.fileOrCli(next))));
    });
    this.enqueue(() => this.recordBoot(this.store.current()));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    this.undescribe?.();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue;
    await this.history.close();
  }

  /** The store, once every record started so far is written (readers see their own writes). */
  async settled(): Promise<ConfigHistoryStore> {
    await this.queue;
    return this.history;
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch((err: unknown) => {
      this.logger.error(`could not record a config revision: ${(err as Error).stack ?? String(err)}`);
    });
  }

  private async fileOrCli(next: RuntimeSnapshot): Promise<Attribution> {
    const cli = await takeCliEditNote(this.store.stateDir, next.contentHash);
    return cli ? { source: 'cli', subject: cli } : { source: 'file', subject: 'file' };
  }

  private async record(prev: RuntimeSnapshot, next: RuntimeSnapshot, by: Attribution): Promise<void> {
    const summary = await this.summaryOf(prev, next);
    const outcome = await this.history.add({ ...this.entryOf(next), ...by, summary, previousHash: prev.contentHash });
    if (outcome === 'recorded') this.logger.debug(`revision ${next.revision}: the same change is already in the history`);
    if (outcome === 'attributed')
      this.logger.debug(`revision ${next.revision}: the history's file edit is now attributed to ${by.subject}`);
  }

  /** `next` was applied over `prev` (one snapshot is applied once, over one previous). */
  private summaryOf(prev: RuntimeSnapshot, next: RuntimeSnapshot): Promise<string> {
    let summary = this.summaries.get(next);
    if (!summary) {
      summary = this.planner.impact(prev, next).then((impact) => impactSummary(prev, next, impact));
      this.summaries.set(next, summary);
    }
    return summary;
  }

  private async recordBoot(snapshot: RuntimeSnapshot): Promise<void> {
    const last = await this.history.latest();
    if (last && last.contentHash === snapshot.contentHash) return;
    const by = await this.fileOrCli(snapshot);
    const summary = last
      ? 'applied at start (the files changed while the gateway was stopped)'
      : 'applied at start (first recorded revision)';
    await this.history.add({ ...this.entryOf(snapshot), ...by, summary });
  }

  private entryOf(s: RuntimeSnapshot) {
    return { revision: s.revision, appliedAt: s.loadedAt, contentHash: s.contentHash, files: filesOf(s) };
  }
}

/** The files of a snapshot relative to the root file's directory, the root first. */
export function filesOf(s: RuntimeSnapshot): HistoryFile[] {
  const dir = path.dirname(s.files[0]);
  return s.files.map((file, i) => ({ path: i === 0 ? path.basename(s.configPath) : path.relative(dir, file), text: s.fileTexts[i] }));
}
