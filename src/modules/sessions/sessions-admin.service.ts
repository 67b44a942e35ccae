import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_HISTORY_LIMIT,
  ListSessionsQueryDto,
  SessionEntryDto,
  SessionHistoryDto,
  SessionHistoryQueryDto,
  SessionListDto,
} from './dto/session.dto';
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
    const sessions = await this.store.list({
      agentId: query.agentId,
      label: query.label,
      activeMinutes: query.activeMinutes,
      limit: query.limit,
    });
    return { count: sessions.length, sessions };
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
