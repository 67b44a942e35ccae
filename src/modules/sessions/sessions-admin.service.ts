import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_HISTORY_LIMIT,
  ListSessionsQueryDto,
  SessionEntryDto,
  SessionHistoryDto,
  SessionHistoryQueryDto,
  SessionListDto,
} from './dto/session.dto';
import { maskedExport } from './masked-export';
import { sessionNotFound } from './session-entry-rules';
import { SESSION_STORE, SessionStore } from './session-store.port';

/**
 * What the admin session endpoints do. The admin acts as an operator and sees every session, so there is
 * no visibility filtering here (that is for sessions acting on sessions, docs/sessions.md#who-may-see-which-session).
 */
@Injectable()
export class SessionsAdminService {
  constructor(@Inject(SESSION_STORE) private readonly store: SessionStore) {}

  async list(query: ListSessionsQueryDto): Promise<SessionListDto> {
    const { sessions, nextCursor } = await this.store.page({
      agentId: query.agentId,
      label: query.label,
      activeMinutes: query.activeMinutes,
      limit: query.limit,
      cursor: query.cursor,
    });
    return { count: sessions.length, sessions, ...(nextCursor ? { nextCursor } : {}) };
  }

  /**
   * The session and its transcript as JSONL chunks, configured secrets masked (masked-export.ts). The first chunk is
   * read here, so an unknown session is a 404 before any byte of the response is written.
   */
  async export(key: string): Promise<{ entry: SessionEntryDto; chunks: AsyncIterable<string> }> {
    const entry = await this.get(key);
    const iterator = this.store.exportTranscript(entry.sessionKey)[Symbol.asyncIterator]();
    const first = await iterator.next();
    async function* chunks(): AsyncIterable<string> {
      for (let step = first; !step.done; step = await iterator.next()) yield step.value;
    }
    return { entry, chunks: maskedExport(chunks()) };
  }

  async get(key: string): Promise<SessionEntryDto> {
    const entry = await this.store.get(key);
    if (!entry) throw sessionNotFound(key.toLowerCase());
    return entry;
  }

  async history(key: string, query: SessionHistoryQueryDto): Promise<SessionHistoryDto> {
    const entry = await this.get(key);
    const { lines, warnings } = await this.store.history(entry.sessionKey, {
      limit: query.limit ?? DEFAULT_HISTORY_LIMIT,
      includeTools: query.includeTools ?? false,
    });
    return { sessionKey: entry.sessionKey, lines, warnings };
  }
}
