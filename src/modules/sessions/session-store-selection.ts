import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { ConfigStore, StateSettings } from '../config';
import type {
  NewTranscriptLine,
  SessionCreateOptions,
  SessionEntry,
  SessionHistory,
  SessionHistoryOptions,
  SessionListFilter,
  SessionPage,
  SessionPageFilter,
  SessionStore,
  TranscriptAppended,
  TranscriptLine,
  TranscriptVersion,
} from './session-store.port';

/** A store this process opened, with what closes it. */
export interface OpenedSessionStore {
  store: SessionStore;
  close(): Promise<void>;
}

export interface SessionBackends {
  /** The SQLite store in the state dir (opening it imports the file layout once). */
  sqlite(): OpenedSessionStore;
  /** The PostgreSQL store at `url`; rejects, naming the server only, when it cannot be reached. */
  postgres(url: string): Promise<OpenedSessionStore>;
  /** How a log line names the server (`host:port/database`). */
  describe(url: string): string;
}

/**
 * The SESSION_STORE of the module: the SQLite store or the PostgreSQL one, as `gateway.state` says (read once: the key
 * takes effect at a restart). Providers are built before the config is loaded, so the choice is made at module init,
 * which comes after the load (an unreachable server fails the start there), or at the first call when that comes
 * first. The store not chosen is never opened: with PostgreSQL no session database is made in the state dir and the
 * file layout is not imported. Append listeners subscribed before the choice are handed to the chosen store.
 */
export class SelectedSessionStore implements SessionStore, OnModuleInit, OnApplicationShutdown {
  private chosen?: OpenedSessionStore;
  private choosing?: Promise<OpenedSessionStore>;
  private readonly logger = new Logger('sessions');
  private readonly listeners = new Set<(event: TranscriptAppended) => void>();

  constructor(
    private readonly config: ConfigStore,
    private readonly backends: SessionBackends,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.isLoaded()) await this.choice();
  }

  async onApplicationShutdown(): Promise<void> {
    const chosen = await this.choosing?.catch(() => undefined);
    await chosen?.close();
  }

  get(sessionKey: string): Promise<SessionEntry | undefined> {
    return this.use((s) => s.get(sessionKey));
  }
  getOrCreate(sessionKey: string, init?: SessionCreateOptions): Promise<SessionEntry> {
    return this.use((s) => s.getOrCreate(sessionKey, init));
  }
  list(filter?: SessionListFilter): Promise<SessionEntry[]> {
    return this.use((s) => s.list(filter));
  }
  page(filter?: SessionPageFilter): Promise<SessionPage> {
    return this.use((s) => s.page(filter));
  }
  setLabel(sessionKey: string, label: string): Promise<SessionEntry> {
    return this.use((s) => s.setLabel(sessionKey, label));
  }
  resolveLabel(agentId: string, label: string): Promise<string | undefined> {
    return this.use((s) => s.resolveLabel(agentId, label));
  }
  isSpawnedBy(targetKey: string, ancestorKey: string): Promise<boolean> {
    return this.use((s) => s.isSpawnedBy(targetKey, ancestorKey));
  }
  append(sessionKey: string, line: NewTranscriptLine, create?: SessionCreateOptions): Promise<TranscriptLine> {
    return this.use((s) => s.append(sessionKey, line, create));
  }
  history(sessionKey: string, options?: SessionHistoryOptions): Promise<SessionHistory> {
    return this.use((s) => s.history(sessionKey, options));
  }
  async *exportTranscript(sessionKey: string): AsyncIterable<string> {
    yield* (await this.choice()).store.exportTranscript(sessionKey);
  }
  transcriptVersions(agentId: string): Promise<TranscriptVersion[]> {
    return this.use((s) => s.transcriptVersions(agentId));
  }
  transcriptVersion(agentId: string, sessionId: string): Promise<TranscriptVersion | undefined> {
    return this.use((s) => s.transcriptVersion(agentId, sessionId));
  }
  onAppend(listener: (event: TranscriptAppended) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private use<T>(fn: (store: SessionStore) => Promise<T>): Promise<T> {
    if (this.chosen) return fn(this.chosen.store);
    return this.choice().then((chosen) => fn(chosen.store));
  }

  private choice(): Promise<OpenedSessionStore> {
    return (this.choosing ??= this.choose());
  }

  private async choose(): Promise<OpenedSessionStore> {
    const settings: StateSettings = this.config.current().config.gateway.state;
    let opened: OpenedSessionStore;
    if (settings.backend === 'postgres') {
      opened = await this.backends.postgres(settings.url);
      this.logger.log(`sessions and transcripts are stored in PostgreSQL at ${this.backends.describe(settings.url)}`);
    } else opened = this.backends.sqlite();
    opened.store.onAppend((event) => {
      for (const listener of this.listeners) listener(event);
    });
    this.chosen = opened;
    return opened;
  }
}
