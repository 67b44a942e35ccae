import { EventEmitter } from 'node:events';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { LoadResult, RuntimeSnapshot } from './config.types';
import { GATEWAY_OPTIONS, GatewayOptions } from './gateway-options';
import { ConfigIssue, ConfigLoadError, formatConfigIssue } from './pipeline/config-issue';
import { loadConfig } from './pipeline/load-config';
import { stableJson } from './pipeline/stable-json';
import { writeFileAtomic } from '../../common/fs/atomic-write';
import { removeStaleTempFiles } from '../../common/fs/stale-temp-files';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../common/fs/private-files';
import { StandingWarnings } from '../../common/logging/standing-warnings';

/** `watch`: a file watcher event; `poll`: the watcher's stat backstop saw a change no event reported. */
export type ReloadTrigger = 'boot' | 'watch' | 'poll' | 'admin' | 'write';

/** What one reload attempt did. `unchanged`: the files or the normalized config did not change. */
export interface ReloadOutcome {
  status: 'applied' | 'unchanged' | 'rejected';
  trigger: ReloadTrigger;
  revision: string;
  errors: ConfigIssue[];
  warnings: ConfigIssue[];
  pendingRestart: string[];
}

export interface ConfigStatus {
  revision: string;
  loadedAt: string;
  configPath: string;
  files: string[];
  lastError: { at: string; errors: ConfigIssue[] } | null;
  pendingRestart: string[];
  warnings: ConfigIssue[];
  reloadMode: 'hybrid' | 'off';
}

/** One line on what changed from `prev` to `next` (names only, never a value). */
export type ChangeSummarizer = (prev: RuntimeSnapshot, next: RuntimeSnapshot) => Promise<string>;

/** Keys that are read once at start (the listener, the tracing SDK, the cluster's Redis); a change waits for a restart. */
const RESTART_KEYS = [
  'gateway.port',
  'gateway.bind',
  'gateway.tls',
  'gateway.telemetry.enabled',
  'gateway.telemetry.serviceName',
  'gateway.telemetry.sampleRatio',
  'gateway.state.backend',
  'gateway.state.url',
  'gateway.cluster.redis.url',
  'gateway.cluster.redis.password',
] as const;
type RestartKey = (typeof RESTART_KEYS)[number];

/**
 * Holds the current RuntimeSnapshot and replaces it atomically on reload. Services call `current()` per
 * request and never keep config in fields; the few stateful parts subscribe to `onApplied`, the watcher to
 * `onServed`.
 */
@Injectable()
export class ConfigStore {
  private readonly logger = new Logger('config');
  private readonly events = new EventEmitter();
  private snapshot?: RuntimeSnapshot;
  /** The values of RESTART_KEYS the gateway was started with. */
  private listener?: Record<RestartKey, unknown>;
  /** What the gateway started with of each plugin whose manifest says its config needs a restart. */
  private startedPlugins?: ReadonlyMap<string, string>;
  private lastError: ConfigStatus['lastError'] = null;
  private pendingRestart: string[] = [];
  /** Reloads run one after another so two edits can never interleave their swaps. */
  private queue: Promise<unknown> = Promise.resolve();
  /** What an applied change did, in one line, for its log line: the config history's summary (config-plan sets it). */
  private summarize?: ChangeSummarizer;
  /** The config warnings last logged: every reload finds them again, the log says them when they appear and clear. */
  private readonly loggedWarnings = new StandingWarnings();

  constructor(@Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions) {
    this.events.setMaxListeners(50);
  }

  /** Loads the config at boot; throws ConfigLoadError (the caller exits 78) when it is invalid. */
  async init(): Promise<RuntimeSnapshot> {
    await this.removeStaleTempFiles();
    const result = await this.load();
    this.logWarnings(result.warnings);
    if (!result.ok) throw new ConfigLoadError(result.errors);
    this.serve(result.snapshot);
    this.listener = restartValues(result.snapshot);
    this.startedPlugins = restartRequiredPlugins(result.snapshot);
    await this.saveLastGood(result.snapshot);
    this.logger.log(`config loaded (revision ${result.snapshot.revision}) from ${this.options.configPath}`);
    this.events.emit('reloaded', this.outcome('applied', 'boot', [], result.warnings));
    return result.snapshot;
  }

  isLoaded(): boolean {
    return this.snapshot !== undefined;
  }

  current(): RuntimeSnapshot {
    if (!this.snapshot) throw new Error('config not loaded yet');
    return this.snapshot;
  }

  get configPath(): string {
    return this.options.configPath;
  }

  get stateDir(): string {
    return this.options.stateDir;
  }

  /** Re-reads the files and swaps the snapshot if the result is valid and different. */
  reload(trigger: ReloadTrigger): Promise<ReloadOutcome> {
    return this.exclusive((reloadNow) => reloadNow(trigger));
  }

  /**
   * Runs `fn` while no reload or other write can start, handing it a reload that does not wait for the
   * lock (the writer's read → edit → write → apply must not interleave with anything).
   */
  exclusive<T>(fn: (reloadNow: (trigger: ReloadTrigger) => Promise<ReloadOutcome>) => Promise<T>): Promise<T> {
    const run = this.queue.then(() => fn((trigger) => this.reloadNow(trigger)));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Runs the whole pipeline on `text` as if it were the root file, without applying anything. */
  validateText(text: string): Promise<LoadResult> {
    return this.load(text);
  }

  /** As validateText, with candidate texts for included files too (real path → text); nothing is applied. */
  validateFiles(rootText: string, fileTexts: ReadonlyMap<string, string>): Promise<LoadResult> {
    return this.load(rootText, fileTexts);
  }

  status(): ConfigStatus {
    const s = this.current();
    return {
      revision: s.revision,
      loadedAt: s.loadedAt.toISOString(),
      configPath: s.configPath,
      files: [...s.files],
      lastError: this.lastError,
      pendingRestart: [...this.pendingRestart],
      warnings: s.warnings,
      reloadMode: s.config.gateway.reload.mode,
    };
  }

  /**
   * Called after every swap that changed the config (a new revision) with the previous and the new snapshot.
   * Returns an unsubscribe function.
   */
  onApplied(listener: (prev: RuntimeSnapshot, next: RuntimeSnapshot) => void): () => void {
    this.events.on('applied', listener);
    return () => this.events.off('applied', listener);
  }

  /**
   * Called in the same tick as every swap, whatever the revision: a snapshot read from other files (a section
   * moved into an included file) says the same but must be watched differently. Returns an unsubscribe function.
   */
  onServed(listener: (next: RuntimeSnapshot) => void): () => void {
    this.events.on('served', listener);
    return () => this.events.off('served', listener);
  }

  /**
   * Who describes an applied change for the `config.applied` line: the config history hands in its summary, so the
   * log and the history say the same (computed once). Returns the function that unsets it.
   */
  describeChangesWith(summarize: ChangeSummarizer): () => void {
    this.summarize = summarize;
    return () => {
      if (this.summarize === summarize) this.summarize = undefined;
    };
  }

  /** Called after every reload attempt, whatever its outcome (metrics, logs). */
  onReloaded(listener: (outcome: ReloadOutcome) => void): () => void {
    this.events.on('reloaded', listener);
    return () => this.events.off('reloaded', listener);
  }

  private load(rootText?: string, fileTexts?: ReadonlyMap<string, string>): Promise<LoadResult> {
    return loadConfig({
      configPath: this.options.configPath,
      stateDir: this.options.stateDir,
      env: this.options.env,
      rootText,
      fileTexts,
    });
  }

  private async reloadNow(trigger: ReloadTrigger): Promise<ReloadOutcome> {
    const prev = this.current();
    const result = await this.load();
    let outcome: ReloadOutcome;
    if (!result.ok) {
      this.lastError = { at: new Date().toISOString(), errors: result.errors };
      this.logger.warn(
        { event: 'config.rejected', source: trigger, revision: prev.revision, errorCount: result.errors.length },
        `config change rejected (${trigger}); still serving revision ${prev.revision}:\n  ` +
          result.errors.map(formatConfigIssue).join('\n  '),
      );
      outcome = this.outcome('rejected', trigger, result.errors, result.warnings);
    } else if (result.snapshot.revision === prev.revision && sameSources(result.snapshot, prev)) {
      // The files are back to what is being served (e.g. a bad edit undone): nothing is wrong any more.
      this.lastError = null;
      outcome = this.outcome('unchanged', trigger, [], result.warnings);
    } else {
      const next = result.snapshot;
      this.serve(next);
      this.lastError = null;
      this.pendingRestart = this.pendingRestartFor(next);
      this.logWarnings(result.warnings);
      if (next.revision !== prev.revision) {
        this.events.emit('applied', prev, next);
        await this.logApplied(trigger, prev, next);
        outcome = this.outcome('applied', trigger, [], result.warnings);
      } else {
        // Only comments, formatting or which file holds what changed: same normalized config, nothing to
        // re-apply (the watcher has followed the files already).
        outcome = this.outcome('unchanged', trigger, [], result.warnings);
      }
      await this.saveLastGood(next);
    }
    this.events.emit('reloaded', outcome);
    return outcome;
  }

  /**
   * Swaps the served snapshot and tells the watcher in the same tick: it must follow the files `next` was
   * read from before anyone can observe `next`, or an edit of a newly included file made right after is
   * missed (a revoked token that keeps working).
   */
  private serve(next: RuntimeSnapshot): void {
    this.snapshot = next;
    this.events.emit('served', next);
  }

  /**
   * The `config.applied` line: the revisions, what changed (the history's summary) and, while keys read once at start
   * differ from what the gateway started with, that they wait for a restart — then a warning, since the change is not
   * all in effect.
   */
  private async logApplied(trigger: ReloadTrigger, prev: RuntimeSnapshot, next: RuntimeSnapshot): Promise<void> {
    const summary = await this.summaryOf(prev, next);
    const restart = this.pendingRestart;
    const fields = {
      event: 'config.applied',
      source: trigger,
      revision: next.revision,
      previousRevision: prev.revision,
      errorCount: 0,
      summary: summary ?? null,
      pendingRestart: [...restart],
    };
    const message =
      `config applied (${trigger}): revision ${prev.revision} -> ${next.revision}` +
      (summary ? `: ${summary}` : '') +
      (restart.length ? `; restart required for ${restart.join(', ')} (read once at start: the running gateway keeps the old values)` : '');
    if (restart.length) this.logger.warn(fields, message);
    else this.logger.log(fields, message);
  }

  /** The summary of an applied change, or undefined without a summarizer or when it failed (the line goes out anyway). */
  private async summaryOf(prev: RuntimeSnapshot, next: RuntimeSnapshot): Promise<string | undefined> {
    if (!this.summarize) return undefined;
    try {
      return await this.summarize(prev, next);
    } catch (err) {
      this.logger.warn(`could not summarize revision ${next.revision}: ${(err as Error).message}`);
      return undefined;
    }
  }

  /** The keys whose value in `next` differs from what the listener was started with (they wait for a restart). */
  pendingRestartFor(next: RuntimeSnapshot): string[] {
    const then = this.listener;
    if (!then) return [];
    const now = restartValues(next);
    const keys: string[] = RESTART_KEYS.filter((k) => now[k] !== then[k]);
    // A plugin whose manifest says `restartRequired` runs with what it was started with until a restart.
    const started = this.startedPlugins ?? new Map<string, string>();
    const current = restartRequiredPlugins(next);
    for (const id of new Set([...started.keys(), ...current.keys()])) {
      if (started.get(id) !== current.get(id)) keys.push(`plugins.entries.${id}`);
    }
    return keys;
  }

  private outcome(status: ReloadOutcome['status'], trigger: ReloadTrigger, errors: ConfigIssue[], warnings: ConfigIssue[]): ReloadOutcome {
    return { status, trigger, revision: this.current().revision, errors, warnings, pendingRestart: [...this.pendingRestart] };
  }

  /** The warnings of the snapshot now served that are new since the last one, and those it no longer has. */
  private logWarnings(warnings: ConfigIssue[]): void {
    const { appeared, cleared } = this.loggedWarnings.update(warnings.map(formatConfigIssue));
    for (const text of appeared) this.logger.warn(`config warning: ${text}`);
    for (const text of cleared) this.logger.log(`config warning no longer applies: ${text}`);
  }

  /**
   * A gateway killed in the middle of an admin edit or a last-good copy leaves the temp file of that atomic
   * write next to the file; nothing else ever removes it. Runs before this process writes either file.
   */
  private async removeStaleTempFiles(): Promise<void> {
    for (const target of [this.options.configPath, path.join(this.options.stateDir, 'openclaw.last-good.json')]) {
      for (const file of await removeStaleTempFiles(target)) this.logger.warn(`removed ${file} left by an interrupted write`);
    }
  }

  /**
   * The document before ${VAR} substitution, so no secret from the environment lands on disk. Secrets
   * written literally in the file are copied as they are, hence a file only the gateway's user can read.
   */
  private async saveLastGood(snapshot: RuntimeSnapshot): Promise<void> {
    try {
      await fs.mkdir(this.options.stateDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      await writeFileAtomic(path.join(this.options.stateDir, 'openclaw.last-good.json'), `${JSON.stringify(snapshot.document, null, 2)}\n`, {
        newFileMode: PRIVATE_FILE_MODE,
      });
    } catch (err) {
      this.logger.warn(`could not save openclaw.last-good.json: ${(err as Error).message}`);
    }
  }
}

/** Read from the same paths with the same contents: nothing to swap, nothing to watch differently. */
function sameSources(a: RuntimeSnapshot, b: RuntimeSnapshot): boolean {
  return a.contentHash === b.contentHash && sameList(a.files, b.files) && sameList(a.watchPaths, b.watchPaths);
}

function sameList(a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Per plugin whose manifest says `restartRequired`: its state, config and channel sections, as comparable text. */
function restartRequiredPlugins(snapshot: RuntimeSnapshot): Map<string, string> {
  const out = new Map<string, string>();
  for (const plugin of snapshot.plugins.values()) {
    if (!plugin.manifest?.restartRequired) continue;
    out.set(plugin.id, stableJson({ state: plugin.state, config: plugin.config, channels: plugin.channels ?? {} }));
  }
  return out;
}

function restartValues(snapshot: RuntimeSnapshot): Record<RestartKey, unknown> {
  const { port, bind, tls, telemetry, state, cluster } = snapshot.config.gateway;
  return {
    'gateway.port': port,
    'gateway.bind': bind,
    // The listener reads the files once at start; a new path (or turning it on or off) needs a restart.
    'gateway.tls': JSON.stringify(tls),
    'gateway.telemetry.enabled': telemetry.enabled,
    'gateway.telemetry.serviceName': telemetry.serviceName,
    'gateway.telemetry.sampleRatio': telemetry.sampleRatio,
    'gateway.state.backend': state.backend,
    // Compared, never shown: pendingRestart lists the key, not the URL.
    'gateway.state.url': state.backend === 'postgres' ? state.url : undefined,
    'gateway.cluster.redis.url': cluster?.redis.url,
    'gateway.cluster.redis.password': cluster?.redis.password,
  };
}
