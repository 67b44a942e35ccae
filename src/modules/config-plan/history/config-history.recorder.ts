import * as path from 'node:path';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { currentConfigActor, type ConfigChangeSource } from '../../../common/auth/config-actor';
import { ConfigStore, type RuntimeSnapshot, type StateSettings } from '../../config';
import { ConfigPlanService } from '../config-plan.service';
import { takeCliEditNote } from './cli-edit-note';
import { openConfigHistory } from './config-history-selection';
import type { ConfigHistoryStore, HistoryFile } from './config-history-store.port';
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
  private history?: Promise<ConfigHistoryStore>;
  private queue: Promise<void> = Promise.resolve();
  private unsubscribe?: () => void;

  constructor(
    private readonly store: ConfigStore,
    private readonly planner: ConfigPlanService,
  ) {}

  /** Opens the history `gateway.state` names; a PostgreSQL server that cannot be reached fails the start. */
  async onApplicationBootstrap(): Promise<void> {
    const state: StateSettings = this.store.isLoaded() ? this.store.current().config.gateway.state : { backend: 'sqlite' };
    this.history = openConfigHistory(state, this.store.stateDir, this.logger);
    // Records wait for the store to open; a store that did not open has nothing to record into.
    this.queue = this.history.then(
      () => undefined,
      () => undefined,
    );
    // Read synchronously in the listener: the actor is the one of the write that caused the swap.
    this.unsubscribe = this.store.onApplied((prev, next) => {
      const actor = currentConfigActor();
      this.enqueue(async () => this.record(prev, next, actor ?? (await this.fileOrCli(next))));
    });
    if (this.store.isLoaded()) this.enqueue(() => this.recordBoot(this.store.current()));
    await this.history;
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue;
    await (await this.history?.catch(() => undefined))?.close();
  }

  /** The store, once every record started so far is written (readers see their own writes). */
  async settled(): Promise<ConfigHistoryStore> {
    await this.queue;
    if (!this.history) throw new Error('the config history is not open yet');
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
    const summary = impactSummary(prev, next, await this.planner.impact(prev, next));
    const outcome = await (await this.history!).add({ ...this.entryOf(next), ...by, summary, previousHash: prev.contentHash });
    if (outcome === 'recorded') this.logger.debug(`revision ${next.revision}: the same change is already in the history`);
    if (outcome === 'attributed')
      this.logger.debug(`revision ${next.revision}: the history's file edit is now attributed to ${by.subject}`);
  }

  private async recordBoot(snapshot: RuntimeSnapshot): Promise<void> {
    const history = await this.history!;
    const last = await history.latest();
    if (last && last.contentHash === snapshot.contentHash) return;
    const by = await this.fileOrCli(snapshot);
    const summary = last
      ? 'applied at start (the files changed while the gateway was stopped)'
      : 'applied at start (first recorded revision)';
    await history.add({ ...this.entryOf(snapshot), ...by, summary });
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
