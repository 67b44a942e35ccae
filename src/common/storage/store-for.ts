/** Where `gateway.state` keeps durable state (the config's `StateSettings`, in the shape every store reads). */
export type StateBackend = { backend: 'sqlite' } | { backend: 'postgres'; url: string };

/** How one store is made on each backend. */
export interface StoreBackends<T> {
  /** The store in the state dir. */
  sqlite(): T;
  /** The store in the database at `url`, opened (connected, migrated); rejects, naming the server only, when it cannot be. */
  postgres(url: string): Promise<T>;
}

/** The PostgreSQL stores of this process being opened: each waits for the one before it. */
let opening: Promise<unknown> = Promise.resolve();

/**
 * The store `state` names, for a store's provider factory (the config is loaded before the module graph is built, so
 * a factory can read `gateway.state`; a change takes effect at a restart). The store not named is never made: with
 * PostgreSQL no file of it appears in the state dir.
 *
 * PostgreSQL stores open one at a time, in the order the module graph asks for them (the session store's first: its
 * module is the first of the graph with a store opened at start), so a server that cannot be reached fails the start
 * with one message, the same each time, and is not asked by every store at once.
 */
export function storeFor<T>(state: StateBackend, backends: StoreBackends<T>): Promise<T> {
  if (state.backend !== 'postgres') return Promise.resolve(backends.sqlite());
  const opened = opening.then(() => backends.postgres(state.url));
  opening = opened.catch(() => undefined);
  return opened;
}
