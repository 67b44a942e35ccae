import { promises as fs } from 'node:fs';
import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { ConfigStore, ReloadOutcome } from '../config.store';
import { GATEWAY_OPTIONS, GatewayOptions } from '../gateway-options';
import { hashContents } from '../pipeline/load-config';
import { editConfigFile, EditPlan } from './edit-config-file';

export interface WriteOptions {
  /** The revision the caller based its change on; a different current revision → 412. */
  ifMatch?: string;
}

export interface WriteResult {
  revision: string;
  previousRevision: string;
  outcome: ReloadOutcome;
}

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
