import * as path from 'node:path';
import { Injectable } from '@nestjs/common';
import { badRequest, notFound } from '../../../common/errors/app-error';
import { currentConfigActor, runAsConfigActor } from '../../../common/auth/config-actor';
import { decodePosition, encodePosition } from '../../../common/text/position-token';
import { ConfigWriter } from '../../config';
import { ConfigWriteService, type ConfigWriteAnswer, type ConfigWriteOptions } from '../config-write.service';
import { refuseNewLiteralSecrets } from '../literal-secrets';
import { redactedDiff, redactedText } from '../redacted-diff';
import { ConfigHistoryRecorder } from './config-history.recorder';
import type { HistoryEntry, HistoryFile } from './config-history-store.port';

export interface HistoryItem {
  revision: string;
  appliedAt: string;
  source: string;
  subject: string;
  summary: string;
}

export interface HistoryDetail extends HistoryItem {
  /** The root file as applied (literal secrets shown as [redacted]). */
  document: string;
  /** Every file of the revision, the root first (one entry without $include). */
  files: HistoryFile[];
  /** Unified diff of every file against the revision applied before it (empty for the first one kept). */
  diff: string;
}

const REVISION_PATTERN = /^[0-9a-f]{12}$/;
export const HISTORY_PAGE = { default: 20, max: 100 };

/** `GET /admin/config/history[/:revision]` and `POST /admin/config/rollback`. */
@Injectable()
export class ConfigHistoryService {
  constructor(
    private readonly recorder: ConfigHistoryRecorder,
    private readonly writer: ConfigWriter,
    private readonly writes: ConfigWriteService,
  ) {}

  async list(limit: number, cursor?: string): Promise<{ items: HistoryItem[]; nextCursor?: string }> {
    const before = cursor === undefined ? undefined : decodePosition(cursor)?.seq;
    if (cursor !== undefined && before === undefined) throw badRequest('cursor is not one this endpoint gave out (use nextCursor)');
    const history = await this.recorder.settled();
    const rows = await history.page(limit + 1, before);
    const items = rows.slice(0, limit).map(itemOf);
    const last = rows.length > limit ? rows[limit - 1] : undefined;
    return last ? { items, nextCursor: encodePosition(last.appliedAt.getTime(), last.seq) } : { items };
  }

  async get(revision: string): Promise<HistoryDetail> {
    const found = await (await this.recorder.settled()).find(checkRevision(revision));
    if (!found) throw notFound(`revision ${revision} is not in the config history (the last 100 applied revisions are kept)`);
    const { entry, previous } = found;
    return {
      ...itemOf(entry),
      document: redactedText(entry.files[0].text),
      files: entry.files.map((f) => ({ path: f.path, text: redactedText(f.text) })),
      diff: previous ? filesDiff(previous.files, entry.files) : '',
    };
  }

  /**
   * Writes the files of a recorded revision back, byte for byte, through the same checks as a PATCH: the
   * revision in If-Match, validation of the whole result, and no literal secret the current config does not
   * already hold (unless allowed). Recorded with source `rollback`.
   */
  async rollback(revision: unknown, options: ConfigWriteOptions): Promise<ConfigWriteAnswer> {
    if (typeof revision !== 'string') throw badRequest('revision must be a string: a revision of GET /admin/config/history');
    const found = await (await this.recorder.settled()).find(checkRevision(revision));
    if (!found) throw notFound(`revision ${revision} is not in the config history (the last 100 applied revisions are kept)`);
    const stored = found.entry.files;
    const subject = currentConfigActor()?.subject ?? 'unknown';
    const result = await runAsConfigActor({ subject, source: 'rollback' }, () =>
      this.writer.writeFiles(
        (files) => {
          const dir = path.dirname(files[0].path);
          const changes = new Map<string, string>();
          stored.forEach((f, i) => {
            const file = i === 0 ? files[0].path : path.resolve(dir, f.path);
            if (files.find((c) => c.path === file)?.text !== f.text) changes.set(file, f.text);
          });
          return changes;
        },
        {
          ifMatch: options.ifMatch,
          verify: refuseNewLiteralSecrets(options.allowLiteralSecrets),
        },
      ),
    );
    return this.writes.answer(result);
  }
}

function checkRevision(revision: string): string {
  if (!REVISION_PATTERN.test(revision))
    throw badRequest(`revision must be 12 hexadecimal characters (got ${JSON.stringify(revision.slice(0, 40))})`);
  return revision;
}

function itemOf(e: HistoryEntry): HistoryItem {
  return { revision: e.revision, appliedAt: e.appliedAt.toISOString(), source: e.source, subject: e.subject, summary: e.summary };
}

function filesDiff(before: HistoryFile[], after: HistoryFile[]): string {
  const names = [...new Set([...before.map((f) => f.path), ...after.map((f) => f.path)])];
  const textOf = (files: HistoryFile[], name: string) => files.find((f) => f.path === name)?.text ?? '';
  return names.map((name) => redactedDiff(name, textOf(before, name), textOf(after, name), ['previous', 'this revision'])).join('');
}
