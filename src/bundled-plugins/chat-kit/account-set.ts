/** An account's settings as the reconciler sees them: keyed by `accountId`. */
export interface AccountSettings {
  readonly accountId: string;
}

/** What a chat channel plugin tells its AccountSet about its accounts. */
export interface AccountSetHooks<S extends AccountSettings, C> {
  /**
   * What of an account's settings its running client depends on, as a string: a change of it restarts the account,
   * anything else (read live from the config by the client) does not. Kept in memory only, never logged.
   */
  fingerprint(settings: S): string;
  /** Makes and starts the client of an account. A throw is reported through `startFailed`; the other accounts carry on. */
  start(settings: S): C | Promise<C>;
  /** Stops a client for good (its account was removed or is restarted). */
  stop(client: C): Promise<void>;
  /** An account's client could not be started, or stopped cleanly (`phase`); the account is left without a client. */
  failed(accountId: string, phase: 'start' | 'stop', error: unknown): void;
}

/**
 * The running clients of a chat channel's accounts, kept in step with the accounts the config wants. Each config
 * change hands the whole desired set to `apply`; applies run one after the other, never two at once (two
 * concurrent ones would each act on a set the other has overtaken: an account removed by the second re-created
 * when the first resumes, two clients for one account). While one runs, further applies only replace the desired
 * set: the next pass applies the latest, so a set overtaken before its turn is never applied, and a pass that sees
 * a newer set waiting starts no client (the next pass decides). An account is restarted only when its fingerprint
 * changed. After `stop` no client is started again.
 */
export class AccountSet<S extends AccountSettings, C> {
  private readonly running = new Map<string, { fingerprint: string; client: C }>();
  private desired?: readonly S[];
  private draining?: Promise<void>;
  private stopped = false;

  constructor(private readonly hooks: AccountSetHooks<S, C>) {}

  /** The client running for `accountId`, if any. */
  get(accountId: string): C | undefined {
    return this.running.get(accountId)?.client;
  }

  /** The ids of the accounts with a running client. */
  ids(): string[] {
    return [...this.running.keys()];
  }

  /**
   * Makes the running clients those of `accounts` (in that order for the starts). Resolves once this set, or one
   * applied after it, is in place. Never rejects: a failing account is reported through the hooks.
   */
  apply(accounts: readonly S[]): Promise<void> {
    if (this.stopped) return this.draining ?? Promise.resolve();
    this.desired = accounts;
    this.draining ??= this.drain();
    return this.draining;
  }

  /** Lets the apply under way finish (starting nothing more), then stops every client. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.draining;
    const all = [...this.running];
    this.running.clear();
    await Promise.all(all.map(([accountId, { client }]) => this.stopClient(client, accountId)));
  }

  private async drain(): Promise<void> {
    // No await between the loop's last check and clearing `draining`: an apply made after that check starts a new drain.
    while (this.desired && !this.stopped) {
      const next = this.desired;
      this.desired = undefined;
      await this.reconcile(next);
    }
    this.draining = undefined;
  }

  private async reconcile(accounts: readonly S[]): Promise<void> {
    const wanted = new Map(accounts.map((settings) => [settings.accountId, settings]));
    for (const [accountId, { fingerprint, client }] of [...this.running]) {
      const settings = wanted.get(accountId);
      if (settings && this.hooks.fingerprint(settings) === fingerprint) continue;
      this.running.delete(accountId);
      await this.stopClient(client, accountId);
    }
    for (const settings of wanted.values()) {
      // A newer set waits (it decides what runs) or the channel is stopping: start nothing more.
      if (this.desired || this.stopped) return;
      if (this.running.has(settings.accountId)) continue;
      try {
        const client = await this.hooks.start(settings);
        // `stop` waits for this pass before it takes the clients: this one is among them.
        this.running.set(settings.accountId, { fingerprint: this.hooks.fingerprint(settings), client });
      } catch (error) {
        this.hooks.failed(settings.accountId, 'start', error);
      }
    }
  }

  private async stopClient(client: C, accountId: string): Promise<void> {
    try {
      await this.hooks.stop(client);
    } catch (error) {
      this.hooks.failed(accountId, 'stop', error);
    }
  }
}
