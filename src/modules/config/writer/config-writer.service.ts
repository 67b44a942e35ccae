import { promises as fs } from 'node:fs';
import { Injectable } from '@nestjs/common';
import { DomainError } from '../../../common/errors/domain-error';
import { invalidConfig } from '../config-admin.service';
import { ConfigStore, ReloadOutcome } from '../config.store';
import { hashContents } from '../pipeline/load-config';
import { toDottedPath } from '../pipeline/config-issue';
import { applyJson5Edits, Json5Edit, Json5EditError } from './json5-edit';
import { writeFileAtomic } from './atomic-write';

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
 * Applies edits to openclaw.json the way SPEC §1.4 asks: minimal text edits (the user's comments and
 * layout survive), optimistic concurrency on the revision, validation of the result before anything is
 * written, atomic replacement, then an immediate apply. The watcher event caused by our own write finds
 * the same content hash and is ignored.
 */
@Injectable()
export class ConfigWriter {
  constructor(private readonly store: ConfigStore) {}

  write(edits: ReadonlyArray<Json5Edit>, options: WriteOptions = {}): Promise<WriteResult> {
    return this.store.exclusive(async (reloadNow) => {
      const current = this.store.current();
      if (options.ifMatch !== undefined && options.ifMatch !== current.revision) {
        throw new DomainError(
          412,
          'Precondition Failed',
          `the config changed: If-Match is ${options.ifMatch} but the current revision is ${current.revision}; GET /admin/config and retry`,
        );
      }
      this.refuseIncludedSections(edits);

      const text = await fs.readFile(current.configPath, 'utf8');
      const others = await Promise.all(current.files.slice(1).map((f) => fs.readFile(f, 'utf8').catch(() => '')));
      if (hashContents([text, ...others]) !== current.contentHash) {
        throw new DomainError(
          412,
          'Precondition Failed',
          'openclaw.json was changed on disk and that change is not applied (it may be invalid); see GET /admin/config/status',
        );
      }
      let next: string;
      try {
        next = applyJson5Edits(text, edits);
      } catch (err) {
        if (err instanceof Json5EditError) throw new DomainError(409, 'Conflict', err.message);
        throw err;
      }
      const check = await this.store.validateText(next);
      if (!check.ok) throw invalidConfig(check.errors, check.warnings);

      await writeFileAtomic(current.configPath, next);
      const outcome = await reloadNow('write');
      return { revision: outcome.revision, previousRevision: current.revision, outcome };
    });
  }

  /** Text in an $include'd file is not ours to rewrite from the root file: name the file instead. */
  private refuseIncludedSections(edits: ReadonlyArray<Json5Edit>): void {
    const included = this.store.current().includedPaths;
    for (const edit of edits) {
      for (let n = 1; n <= edit.path.length; n++) {
        const prefix = toDottedPath(edit.path.slice(0, n));
        const file = included.get(prefix);
        if (file) {
          throw new DomainError(
            409,
            'Conflict',
            `${toDottedPath(edit.path)} is defined in the included file ${file}; edit that file instead`,
          );
        }
      }
    }
  }
}
