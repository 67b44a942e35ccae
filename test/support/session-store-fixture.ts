import type { SessionEntry, SessionStore } from '../../src/modules/sessions/session-store.port';

/** Storage for one test, with agents `main` and `ops` configured: opening it again is what a restarted process sees. */
export interface SessionStoreFixture {
  /** A new store over the same storage (what is committed is all it sees). Closed by dispose(). */
  open(): Promise<SessionStore>;
  /** Puts entries into the storage as written by an older gateway (any timestamps, any lineage); open() again to see them. */
  seed(entries: SessionEntry[]): Promise<void>;
  /** Overwrites the newest transcript line with `text` (another process editing the storage); returns the row number warnings name. */
  damageLastLine(text: string): Promise<number>;
  /** Closes the stores and removes the storage. */
  dispose(): Promise<void>;
}

export interface ContractContext {
  fixture: SessionStoreFixture;
  store: SessionStore;
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
