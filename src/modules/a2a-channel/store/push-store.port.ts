/**
 * The PushStore port (docs/a2a.md#push-notifications): the push configs peers registered per task and the outbox of
 * deliveries. The outbox rows themselves are written by the task store, in the commit of the event that causes them
 * (SQLite: sqlite-push.store.ts over the task database; PostgreSQL: pg-push.store.ts over the task store's pool).
 * Every read is asynchronous, so a shared server can answer it. Inject with `@Inject(PUSH_STORE)`.
 */
export const PUSH_STORE = Symbol('A2A_PUSH_STORE');

/** A push config as a peer registered it (the id is the peer's, or one the gateway chose). */
export interface PushConfigInput {
  id: string;
  url: string;
  token?: string;
  authentication?: { scheme: string; credentials?: string };
  /** The A2A version the config was registered in: deliveries are rendered in it. */
  wire: '1.0' | '0.3';
}

/** A stored push config, as both stores return it (the SQLite columns of sqlite-push-schema.ts). */
export interface PushConfigRow {
  seq: number;
  task_seq: number;
  task_id: string;
  peer: string;
  id: string;
  url: string;
  token: string | null;
  auth_scheme: string | null;
  auth_credentials: string | null;
  wire: string;
  created_at: number;
}

/** One delivery of the outbox: an event for one config. */
export interface PushDeliveryRow {
  seq: number;
  config_seq: number;
  n: number;
  body: string;
  closes: number;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_at: number;
  last_error: string | null;
  created_at: number;
  done_at: number | null;
}

/** A delivery that is due, with what sending it needs. */
export type DueDelivery = PushDeliveryRow &
  Pick<PushConfigRow, 'url' | 'token' | 'auth_scheme' | 'auth_credentials' | 'wire' | 'peer' | 'task_id'> & {
    config_id: string;
  };

/** A delivery as the operator sees it (GET /admin/a2a/push): never the credentials. */
export type ListedDelivery = Omit<PushDeliveryRow, 'body'> & Pick<PushConfigRow, 'url' | 'peer' | 'task_id'> & { config_id: string };

export type DeliveryCounts = Record<PushDeliveryRow['state'], number>;

export interface PushStore {
  /** The task's row position (configs refer to it), or undefined when the task has no row. */
  taskSeq(taskId: string): Promise<number | undefined>;
  /**
   * Creates or replaces the task's config with this id: 'full' when the task already has `max` others, 'no-task' when
   * the task has no row. Call it after the task's insert has resolved.
   */
  save(task: { id: string; peer: string }, config: PushConfigInput, max: number): Promise<PushConfigRow | 'full' | 'no-task'>;
  get(taskSeq: number, id: string): Promise<PushConfigRow | undefined>;
  list(taskSeq: number): Promise<PushConfigRow[]>;
  /** Removes the config and the deliveries it still had pending; false when there was none. */
  remove(taskSeq: number, id: string): Promise<boolean>;
  /**
   * Claims up to `limit` due deliveries, per config only its oldest pending one (a config's events go out in order),
   * for `leaseMs`: until then no caller (no other replica) claims them again. A claim not settled by one of the
   * `mark…` calls in time — its process died — is claimed again once the lease is over.
   */
  claimDue(now: number, limit: number, leaseMs: number): Promise<DueDelivery[]>;
  /**
   * Extends to `now + leaseMs` the claims among `seqs` this caller still holds (a delivery waiting for its host's turn
   * keeps its claim); resolves with those seqs. A claim that ran out or was settled meanwhile is not renewed.
   */
  renewClaims(seqs: readonly number[], now: number, leaseMs: number): Promise<number[]>;
  /** When the next pending delivery can be claimed (epoch ms; a config's later ones wait for its oldest), if any. */
  nextDue(): Promise<number | undefined>;
  markDelivered(seq: number, at: number): Promise<void>;
  markRetry(seq: number, nextAt: number, error: string): Promise<void>;
  markFailed(seq: number, at: number, error: string): Promise<void>;
  /** Newest first, at most `limit`, optionally of one state. */
  listed(state: PushDeliveryRow['state'] | undefined, limit: number): Promise<ListedDelivery[]>;
  counts(): Promise<DeliveryCounts>;
  /** Drops finished deliveries older than `before` (their tasks may live on). */
  pruneDone(before: number): Promise<number>;
  /** True when other processes may write the same outbox (the deliverer then also looks for work on a timer). */
  readonly shared: boolean;
}
