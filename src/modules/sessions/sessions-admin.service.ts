import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { suggestClosest } from '../../common/text/did-you-mean';
import { ConfigStore } from '../config';
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
  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    private readonly config: ConfigStore,
  ) {}

  async list(query: ListSessionsQueryDto): Promise<SessionListDto> {
    const { sessions, nextCursor } = await this.store.page({
      agentId: query.agentId,
      label: query.label,
      activeMinutes: query.activeMinutes,
      limit: query.limit,
      cursor: query.cursor,
    });
    // A misspelt agent would read as "no sessions"; a removed agent's sessions are still listed.
    if (query.agentId !== undefined && !sessions.length && !query.cursor) this.checkAgentExists(query.agentId);
    return { count: sessions.length, sessions, ...(nextCursor ? { nextCursor } : {}) };
  }

  /** 404 naming the configured agents (and the one meant, when close) for an agent the config does not have. */
  private checkAgentExists(agentId: string): void {
    const agents = [...this.config.current().agentsById.keys()];
    if (agents.includes(agentId.toLowerCase())) return;
    const meant = suggestClosest(agentId, agents);
    throw new AppError(
      ErrorCode.NotFound,
      `no agent "${agentId}" in the config and no session of one by that id` +
        (meant ? ` (did you mean "${meant}"?)` : '') +
        `; agents: ${agents.join(', ')}`,
    );
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
