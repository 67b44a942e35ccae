import { promises as fs } from 'node:fs';
import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { ConfigStore, ReloadOutcome } from '../config.store';
import { GATEWAY_OPTIONS, GatewayOptions } from '../gateway-options';
import { hashContents } from '../pipeline/load-config';
import { editConfigFile, EditPlan } from './edit-config-file';
import { invalidConfig } from '../config-admin.service';
import type { RuntimeSnapshot } from '../config.types';
import { writeFileAtomic } from '../../../common/fs/atomic-write';
import type { ConfigFileText } from './merge-patch-files';

export interface WriteOptions {
  /** The revision the caller based its change on; a different current revision → 412. */
  ifMatch?: string;
}

export interface WriteResult {
  revision: string;
  previousRevision: string;
  outcome: ReloadOutcome;
}

export interface FilesWriteOptions {
  /** The revision the caller based its change on; undefined accepts any (If-Match: *). A different one → 412. */
  ifMatch?: string;
  /** Runs on the validated candidate before anything is written; throw to refuse it (nothing is written then). */
  verify?: (candidate: RuntimeSnapshot, current: RuntimeSnapshot) => void;
}

export interface FilesWriteResult extends WriteResult {
  /** The snapshots before and after (the same one when nothing changed). */
  previous: RuntimeSnapshot;
  next: RuntimeSnapshot;
  /** Real paths of the files rewritten; empty when the change left every file as it was. */
  written: string[];
}

/** The new text of each file to change (real path → text), computed from the files as they are. */
export type FileChanges = (files: ConfigFileText[], current: RuntimeSnapshot) => ReadonlyMap<string, string>;

/**
 * The gateway's own writes to openclaw.json: optimistic concurrency on the revision, then
 * `editConfigFile`, then an immediate apply. Runs under the ConfigStore lock so no reload or other write
 * interleaves. The watcher event caused by our own write finds the same content hash and is ignored.
 * Described in docs/configuration.md#12-edits-made-by-the-gateway.
 */
@Injectable()
export class ConfigWriter {
  constructor(
    private readonly store: ConfigStore,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
  ) {}

  /**
   * A change of any files of the config (the root and the files it includes): the revision checked, the
   * files on disk checked against what is applied, the whole candidate validated (422, nothing written),
   * `verify` asked, then each changed file replaced atomically (included files first, the root last) and
   * the result applied at once.
   */
  writeFiles(changes: FileChanges, options: FilesWriteOptions = {}): Promise<FilesWriteResult> {
    return this.store.exclusive(async (reloadNow) => {
      const current = this.store.current();
      this.checkRevision(current, options.ifMatch);
      const files = await this.readApplied(current);
      const next = changes(files, current);
      const root = files[0];
      if (!next.size) {
        const outcome: ReloadOutcome = {
          status: 'unchanged',
          trigger: 'write',
          revision: current.revision,
          errors: [],
          warnings: current.warnings,
          pendingRestart: this.store.status().pendingRestart,
        };
        return { revision: current.revision, previousRevision: current.revision, outcome, previous: current, next: current, written: [] };
      }
      const included = new Map([...next].filter(([file]) => file !== root.path));
      const check = await this.store.validateFiles(next.get(root.path) ?? root.text, included);
      if (!check.ok) throw invalidConfig(check.errors, check.warnings);
      options.verify?.(check.snapshot, current);
      for (const [file, text] of included) await writeFileAtomic(file, text);
      const rootText = next.get(root.path);
      if (rootText !== undefined) await writeFileAtomic(current.configPath, rootText);
      const outcome = await reloadNow('write');
      const written = [...next.keys()];
      const after = this.store.current();
      return { revision: outcome.revision, previousRevision: current.revision, outcome, previous: current, next: after, written };
    });
  }

  private checkRevision(current: RuntimeSnapshot, ifMatch: string | undefined): void {
    if (ifMatch !== undefined && ifMatch !== current.revision) {
      throw new AppError(
        ErrorCode.PreconditionFailed,
        `the config changed: If-Match is ${ifMatch} but the current revision is ${current.revision}; GET /admin/config and retry`,
      );
    }
  }

  /** Every file of the config as it is on disk; 412 when that is not what is applied (an edit not applied yet, or invalid). */
  private async readApplied(current: RuntimeSnapshot): Promise<ConfigFileText[]> {
    const texts = await Promise.all(current.files.map((f, i) => fs.readFile(i === 0 ? current.configPath : f, 'utf8').catch(() => '')));
    if (hashContents(texts) !== current.contentHash) {
      throw new AppError(
        ErrorCode.PreconditionFailed,
        'openclaw.json was changed on disk and that change is not applied (it may be invalid); see GET /admin/config/status',
      );
    }
    return current.files.map((file, i) => ({ path: file, text: texts[i] }));
  }

  write(plan: EditPlan, options: WriteOptions = {}): Promise<WriteResult> {
    return this.store.exclusive(async (reloadNow) => {
      const current = this.store.current();
      if (options.ifMatch !== undefined && options.ifMatch !== current.revision) {
        throw new AppError(
          ErrorCode.PreconditionFailed,
          `the config changed: If-Match is ${options.ifMatch} but the current revision is ${current.revision}; GET /admin/config and retry`,
        );
      }
      const text = await fs.readFile(current.configPath, 'utf8');
      const others = await Promise.all(current.files.slice(1).map((f) => fs.readFile(f, 'utf8').catch(() => '')));
      if (hashContents([text, ...others]) !== current.contentHash) {
        throw new AppError(
          ErrorCode.PreconditionFailed,
          'openclaw.json was changed on disk and that change is not applied (it may be invalid); see GET /admin/config/status',
        );
      }
      await editConfigFile({
        configPath: current.configPath,
        stateDir: this.options.stateDir,
        env: this.options.env,
        plan,
        includedPaths: current.includedPaths,
        currentText: text,
      });
      const outcome = await reloadNow('write');
      return { revision: outcome.revision, previousRevision: current.revision, outcome };
    });
  }
}
