import type { ExchangeRecord } from './exchange-record';

/** Injection token of the module's ExchangeStore (the SQLite or the PostgreSQL one, as `gateway.state` says). */
export const EXCHANGE_STORE = Symbol('EXCHANGE_STORE');

/** How many exchanges one agent started with another since a given time (the topology's traffic). */
export interface AgentPairCount {
  from: string;
  to: string;
  count: number;
}

/**
 * The record of sessions_send exchanges (docs/sessions.md#following-up-on-an-exchange): SQLite in the state dir
 * (sqlite-exchange.store.ts) or, with `gateway.state.backend: "postgres"`, one table every replica writes and reads
 * (pg-exchange.store.ts), picked at start by the EXCHANGE_STORE factory of session-tools.module.ts. Every call is asynchronous, so a shared
 * server can answer it. One contract suite for both: test/support/exchange-store-contract.ts.
 */
export interface ExchangeStore {
  /**
   * Stores the exchange as `current()` returns it when its write runs: several saves queued before it cost one write,
   * and the last state wins. A new exchange beyond `keep` forgets the oldest. An `interrupted` exchange is never
   * written over (its process was found gone; a late write of it is dropped).
   */
  save(current: () => ExchangeRecord): Promise<void>;
  /** The stored exchange that run `runId` belongs to (round one, a ping-pong turn, the announce). */
  find(runId: string): Promise<ExchangeRecord | undefined>;
  /** Exchanges started at or after `since` (epoch ms) per requester and target agent; what was saved before is counted. */
  pairCounts(since: number): Promise<AgentPairCount[]>;
  /** Writes what is queued, then closes; later saves fail. */
  close(): Promise<void>;
}

/** The running exchanges of one owner (a replica id), and whether that owner keeps a heartbeat lease in the cluster. */
export interface OwnerExchangeCount {
  owner: string;
  leased: boolean;
  exchanges: number;
}

/**
 * Exchanges by the process that runs them, in a store several replicas share: an exchange still `running` whose
 * owner's lease is gone is marked `interrupted` by another replica (orphaned-exchange-sweeper.ts).
 */
export interface OwnedExchanges {
  runningByOwner(): Promise<OwnerExchangeCount[]>;
  /** Marks every running exchange of the leased `owner` interrupted, once however many replicas ask; how many. */
  interruptOwned(owner: string, at: string): Promise<number>;
}

/** An exchange store that can say which exchanges each replica owns: only a shared one can (undefined otherwise). */
export interface OwnedExchangesSource {
  ownedExchanges(): OwnedExchanges | undefined;
}

/** Who writes the exchanges a shared store is given. */
export interface ExchangeOwner {
  /** This process (its replica id, new at each start). */
  owner: string;
  /**
   * The state dir this process holds (`host:path`, one process at a time): the store opened on it marks the exchanges
   * the last process on that dir left running.
   */
  stateDir: string;
  /** Whether the owner keeps a heartbeat lease in the cluster (asked at each new exchange). */
  leased: () => boolean;
}
