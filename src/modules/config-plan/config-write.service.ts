import { Injectable } from '@nestjs/common';
import { badRequest } from '../../common/errors/app-error';
import { isRecord } from '../../common/is-record';
import { ConfigWriter, invalidConfig, mergePatchFiles, type ConfigIssue, type FilesWriteResult } from '../config';
import { ConfigPlanService, type PlanImpact } from './config-plan.service';
import { literalSecretsInPatch } from './literal-secrets';

/** What a write through the admin config API answers (PATCH and rollback alike). */
export interface ConfigWriteAnswer {
  revision: string;
  warnings: ConfigIssue[];
  pendingRestart: string[];
  impact: PlanImpact;
}

export interface ConfigWriteOptions {
  /** The revision the caller read; undefined for `If-Match: *`. */
  ifMatch: string | undefined;
  /** `?allowLiteralSecrets=true`: secrets may be written as values, not only as `${VAR}` references. */
  allowLiteralSecrets: boolean;
}

/**
 * `PATCH /admin/config`: a JSON Merge Patch against the merged config, written with the comment-keeping
 * writer into whichever files hold the edited nodes (the root or an `$include`d file), validated whole
 * before anything is written, applied at once; the answer carries the plan's impact of the change.
 */
@Injectable()
export class ConfigWriteService {
  constructor(
    private readonly writer: ConfigWriter,
    private readonly planner: ConfigPlanService,
  ) {}

  async patch(patch: unknown, options: ConfigWriteOptions): Promise<ConfigWriteAnswer> {
    if (!isRecord(patch)) {
      throw badRequest(
        `the body must be a JSON Merge Patch object (RFC 7396), not ${Array.isArray(patch) ? 'an array' : patch === null ? 'null' : typeof patch}`,
      );
    }
    if (!options.allowLiteralSecrets) {
      const literals = literalSecretsInPatch(patch);
      if (literals.length) throw invalidConfig(literals);
    }
    const result = await this.writer.writeFiles((files) => mergePatchFiles(files, patch), { ifMatch: options.ifMatch });
    return this.answer(result);
  }

  /** The common answer of a write: the new revision and its ETag, warnings, restart keys, the impact. */
  async answer(result: FilesWriteResult): Promise<ConfigWriteAnswer> {
    return {
      revision: result.revision,
      warnings: result.outcome.warnings,
      pendingRestart: result.outcome.pendingRestart,
      impact: await this.planner.impact(result.previous, result.next),
    };
  }
}
