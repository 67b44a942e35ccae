import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { urlAllowedByPatterns } from '../../../common/net/url-patterns';
import { ConfigStore } from '../../config';
import { GuardedTransport, OutboundError } from '../../outbound';
import { streamItemToV03 } from '../protocol/v03-wire';
import { PUSH_SIGNATURE_HEADER, PushSigningKey } from './push-signing-key';
import { type DueDelivery, PUSH_STORE, type PushStore } from '../store/push-store.port';
import { A2A_JSON_CONTENT_TYPE } from '../protocol/media-types';
import { HostSlots, pushHostOf } from './push-host-slots';

/** Each attempt may take this long (the specification recommends 10–30 s). */
export const PUSH_TIMEOUT_MS = 30_000;
/** A delivery is retried for this long after its event, then marked failed. */
export const PUSH_RETRY_FOR_MS = 60 * 60 * 1000;
/** The first retry waits this long; each next one twice as long, up to PUSH_MAX_BACKOFF_MS. */
export const PUSH_FIRST_BACKOFF_MS = 1000;
export const PUSH_MAX_BACKOFF_MS = 5 * 60 * 1000;
/** Finished deliveries are kept this long for the operator to see (GET /admin/a2a/push). */
const KEEP_DONE_MS = 24 * 60 * 60 * 1000;
const BATCH = 20;
/** A claimed delivery is this replica's for this long: the longest attempt, with room to store its outcome. */
export const PUSH_LEASE_MS = 2 * PUSH_TIMEOUT_MS;
/** With a shared outbox, how often a replica looks for deliveries queued or left by the others. */
export const PUSH_SHARED_POLL_MS = 2000;
/**
 * Attempts under way at once to one host (by name, any port), per gateway process: each is one connection. Configs
 * are sent one event at a time each, but a task may have ten and a peer many tasks, so without a cap one host that
 * accepts connections and never answers would hold a socket per config for the whole timeout. Six is what browsers
 * allow per host. Further deliveries to that host wait their turn, claimed (their claims renewed while they wait);
 * other hosts' go out meanwhile.
 */
export const PUSH_CONNECTIONS_PER_HOST = 6;
/** How often the claims of deliveries waiting for their host's turn are renewed: well inside one lease. */
const RENEW_WAITING_MS = PUSH_LEASE_MS / 3;

export const PUSH_SIGNING_KEY = Symbol('A2A_PUSH_SIGNING_KEY');

/** Wakes the deliverer when a commit queued deliveries (the task store's hook; breaks the store ↔ deliverer cycle). */
export class PushWakeup {
  private listener: () => void = () => undefined;
  readonly wake = (): void => this.listener();
  listen(listener: () => void): void {
    this.listener = listener;
  }
}

/** The wait before attempt `attempts + 1` (attempts already made ≥ 1). */
export function pushBackoff(attempts: number): number {
  return Math.min(PUSH_FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - 1), PUSH_MAX_BACKOFF_MS);
}

/**
 * Sends the push outbox (docs/a2a-push.md#delivery): each delivery is an HTTP POST of the event's StreamResponse to
 * the config's URL through the guarded outbound transport (no redirects, no private address a name resolves to,
 * 30 s), with the config's authentication, its token and a signature. A 2xx is delivered; anything else is retried
 * with backoff for an hour, then failed with the last error. A config's events go out one at a time, in order, and
 * one host gets at most PUSH_CONNECTIONS_PER_HOST attempts at once (the others wait their turn; other hosts do not).
 * The outbox is durable: what was pending when the gateway stopped is sent after it starts again (at least once —
 * receivers dedupe by the event id header). Each delivery is claimed for PUSH_LEASE_MS before it is sent, so replicas
 * sharing an outbox (PostgreSQL) never send one at the same time; they also look for work every PUSH_SHARED_POLL_MS,
 * since another replica may have queued it, or died holding it.
 */
@Injectable()
export class PushDeliverer implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('a2a-push');
  private timer?: NodeJS.Timeout;
  private pruneTimer?: NodeJS.Timeout;
  private renewTimer?: NodeJS.Timeout;
  /** Configs with a delivery under way or waiting for its host: their next one waits (events go out in order). */
  private readonly busyConfigs = new Set<number>();
  private readonly hosts = new HostSlots<DueDelivery>(PUSH_CONNECTIONS_PER_HOST, (delivery, done) => this.start(delivery, done));
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private closing = false;
  private pumping = false;
  /** A wakeup came while a pump was under way: it may have missed what woke it. */
  private pumpAgain = false;

  constructor(
    private readonly config: ConfigStore,
    @Inject(PUSH_STORE) private readonly push: PushStore,
    private readonly transport: GuardedTransport,
    @Inject(PUSH_SIGNING_KEY) private readonly key: PushSigningKey,
    wakeup: PushWakeup,
  ) {
    wakeup.listen(() => this.schedule(0));
  }

  onModuleInit(): void {
    // Whatever was pending when the gateway stopped goes out now.
    this.schedule(0);
    this.pruneTimer = setInterval(() => void this.push.pruneDone(Date.now() - KEEP_DONE_MS).catch(() => undefined), 60_000);
    this.pruneTimer.unref();
    this.renewTimer = setInterval(() => void this.renewWaiting(), RENEW_WAITING_MS);
    this.renewTimer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    clearTimeout(this.timer);
    clearInterval(this.pruneTimer);
    clearInterval(this.renewTimer);
    // Deliveries waiting for their host are simply not started: their claims run out and they are sent later.
    // An attempt cut short stays pending: it is sent again after the next start.
    this.abort.abort();
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(delayMs: number): void {
    if (this.closing) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.pump(), Math.max(0, delayMs));
    this.timer.unref();
  }

  private pump(): void {
    if (this.closing) return;
    // One pump at a time; a wakeup meanwhile runs another one after it.
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void this.claimAndSend()
      .then(
        (next) => (next === undefined ? undefined : this.schedule(next - Date.now())),
        (err: Error) => {
          // At shutdown the store may close under a pump: nothing is lost, the rows stay pending.
          if (this.closing) return;
          this.logger.error(`push outbox could not be read: ${err.message}`);
          this.schedule(5000);
        },
      )
      .finally(() => {
        this.pumping = false;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.schedule(0);
        }
      });
  }

  /**
   * Starts the due deliveries, or queues them behind their host's; returns when to look again (undefined: an attempt
   * under way will look).
   */
  private async claimAndSend(): Promise<number | undefined> {
    const due = await this.push.claimDue(Date.now(), BATCH, PUSH_LEASE_MS);
    if (this.closing) return undefined;
    for (const delivery of due) {
      if (this.busyConfigs.has(delivery.config_seq)) continue;
      this.busyConfigs.add(delivery.config_seq);
      this.hosts.add(pushHostOf(delivery.url), delivery);
    }
    // A full batch may have left more due behind it, for other hosts too: take them now, not when an attempt ends.
    if (due.length === BATCH) return Date.now();
    if (this.inFlight.size) return undefined;
    const next = await this.push.nextDue();
    const poll = this.push.shared ? Date.now() + PUSH_SHARED_POLL_MS : undefined;
    if (next === undefined || poll === undefined) return next ?? poll;
    return Math.min(next, poll);
  }

  /** One attempt, in its host's slot; `done` frees the slot for the host's next waiting delivery. */
  private start(delivery: DueDelivery, done: () => void): void {
    const attempt = this.attempt(delivery).finally(() => {
      this.busyConfigs.delete(delivery.config_seq);
      this.inFlight.delete(attempt);
      done();
      this.schedule(0);
    });
    this.inFlight.add(attempt);
  }

  /**
   * Waiting deliveries keep their claims, renewed here well before they run out. One whose claim was lost anyway leaves
   * the queue, to be claimed again by whoever comes first; when the store does not answer, all of them do, since their
   * claims may run out before the next try and another replica could then send them too.
   */
  private async renewWaiting(): Promise<void> {
    const waiting = this.hosts.waiting();
    if (!waiting.length || this.closing) return;
    let held: Set<number>;
    try {
      held = new Set(
        await this.push.renewClaims(
          waiting.map((d) => d.seq),
          Date.now(),
          PUSH_LEASE_MS,
        ),
      );
    } catch (err) {
      this.logger.warn(`push deliveries waiting for their host let go: their claims could not be renewed: ${(err as Error).message}`);
      held = new Set();
    }
    const asked = new Set(waiting);
    for (const lost of this.hosts.removeWaiting((d) => asked.has(d) && !held.has(d.seq))) this.busyConfigs.delete(lost.config_seq);
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const setting = `channels.a2a.peers.${delivery.peer}.pushUrls`;
    const now = Date.now();
    const peer = this.config.current().config.channels.a2a.peers[delivery.peer];
    // The operator may have narrowed the allowlist since the config was made: the current one decides.
    if (!peer || !urlAllowedByPatterns(delivery.url, peer.pushUrls)) {
      return this.push.markFailed(delivery.seq, now, `the URL is no longer allowed by ${setting}`).catch(() => undefined);
    }
    let error: string;
    try {
      const status = await this.send(delivery, setting);
      if (status >= 200 && status < 300) return await this.push.markDelivered(delivery.seq, Date.now());
      error = `the receiver answered HTTP ${status}`;
    } catch (err) {
      if (this.closing) return;
      error = reasonOf(err);
    }
    if (this.closing) return;
    const at = Date.now();
    const giveUp = at - delivery.created_at >= PUSH_RETRY_FOR_MS;
    if (giveUp) this.logger.warn(`push delivery ${delivery.seq} of task ${delivery.task_id} failed for good: ${error}`);
    await (
      giveUp
        ? this.push.markFailed(delivery.seq, at, error)
        : this.push.markRetry(delivery.seq, at + pushBackoff(delivery.attempts + 1), error)
    ).catch((err: Error) => this.logger.error(`push delivery ${delivery.seq}: the outcome could not be stored: ${err.message}`));
  }

  private async send(delivery: DueDelivery, setting: string): Promise<number> {
    const body = delivery.wire === '0.3' ? streamItemToV03(delivery.body, delivery.closes === 1) : delivery.body;
    const headers: Record<string, string> = {
      'Content-Type': delivery.wire === '0.3' ? 'application/json' : A2A_JSON_CONTENT_TYPE,
      'User-Agent': 'clawgate-a2a-push',
      // The same event may arrive twice (at least once); this names it for the receiver's dedupe.
      'X-A2A-Event-Id': `${delivery.task_id}:${delivery.n}`,
      [PUSH_SIGNATURE_HEADER]: await this.key.sign({ url: delivery.url, body, taskId: delivery.task_id, event: delivery.n }),
    };
    if (delivery.auth_scheme) headers.Authorization = `${delivery.auth_scheme} ${delivery.auth_credentials ?? ''}`.trim();
    if (delivery.token) headers['X-A2A-Notification-Token'] = delivery.token;
    const res = await this.transport.request({
      kind: 'a2a-push',
      destination: { url: delivery.url, setting },
      method: 'POST',
      headers,
      body,
      timeoutMs: PUSH_TIMEOUT_MS,
      signal: this.abort.signal,
      readBody: false,
    });
    return res.status;
  }
}

/** What the operator is told: the failure, never the URL's path or query (they may carry secrets). */
function reasonOf(err: unknown): string {
  if (!(err instanceof OutboundError)) return 'the request failed';
  if (err.failure === 'redirect') return `the receiver answered with a redirect (HTTP ${err.status}); redirects are not followed`;
  if (err.failure === 'timeout') return `the receiver did not answer within ${PUSH_TIMEOUT_MS} ms`;
  if (err.failure === 'refused_address' || err.failure === 'invalid_destination') return `refused: ${err.message}`;
  return err.code ? `the request failed (${err.code})` : 'the request failed';
}
