import { promises as fs } from 'node:fs';
import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { ConfigStore, ReloadOutcome } from './config.store';
import type { ConfigIssue } from './pipeline/config-issue';
import { redactSecretFields } from '../../common/secrets/redact-document';
import { restoreRedactedSecrets } from './writer/restore-redacted';
import { locateIssues } from './writer/locate-issues';

/** What the admin config endpoints do; the controller only maps HTTP onto it. */
@Injectable()
export class ConfigAdminService {
  constructor(private readonly store: ConfigStore) {}

  document(): { revision: string; configPath: string; document: Record<string, unknown> } {
    const s = this.store.current();
    return { revision: s.revision, configPath: s.configPath, document: redactSecretFields(s.document) as Record<string, unknown> };
  }

  /**
   * A candidate root file through the reload pipeline. `"[redacted]"` at a secret's path stands for the secret the
   * file holds there (what `GET /admin/config/file` shows), so a text read redacted validates as it would be written.
   */
  async validate(text: string): Promise<{ valid: true; revision: string; warnings: ConfigIssue[] }> {
    const served = await fs.readFile(this.store.current().configPath, 'utf8').catch(() => '');
    const restored = restoreRedactedSecrets(text, served);
    if (restored.issues.length) throw invalidConfig(restored.issues);
    const result = await this.store.validateText(restored.text);
    // Each issue with the line of the text it is about, so an editor can mark it.
    const root = this.store.current().configPath;
    if (!result.ok) throw invalidConfig(locateIssues(result.errors, text, root), locateIssues(result.warnings, text, root));
    return { valid: true, revision: result.snapshot.revision, warnings: locateIssues(result.warnings, text, root) };
  }

  async reload(): Promise<Omit<ReloadOutcome, 'errors' | 'trigger'>> {
    const outcome = await this.store.reload('admin');
    if (outcome.status === 'rejected') throw invalidConfig(outcome.errors, outcome.warnings, outcome.revision);
    return { status: outcome.status, revision: outcome.revision, warnings: outcome.warnings, pendingRestart: outcome.pendingRestart };
  }
}

/** 422 with every issue listed; used by validate, reload and the config writer. */
export function invalidConfig(errors: ConfigIssue[], warnings: ConfigIssue[] = [], servingRevision?: string): AppError {
  const n = errors.length;
  const serving = servingRevision ? `; still serving revision ${servingRevision}` : '';
  return new AppError(
    ErrorCode.ConfigInvalid,
    `${n} error${n === 1 ? '' : 's'} in the config${serving}: ${errors
      .slice(0, 3)
      .map((e) => (e.path ? `${e.path}: ${e.message}` : e.message))
      .join('; ')}${n > 3 ? '; ...' : ''}`,
    [...errors.map((e) => ({ ...e, severity: 'error' })), ...warnings.map((w) => ({ ...w, severity: 'warning' }))],
  );
}
