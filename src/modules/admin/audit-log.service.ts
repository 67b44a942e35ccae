import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Request, Response } from 'express';
import { maskSecrets } from '../../common/secrets/secret-mask';
import { ConfigStore } from '../config';
import { getPrincipal, isWriteMethod } from './admin-principal';
import { AuditEntry, AuditPage } from './audit-page';
import { AUDIT_STORE, type AuditStore } from './audit-store';
import { clientAddress, forwardingProxies } from './peer-address';

const TRACKED = Symbol('clawgate.auditTracked');
const CHANGES_NOTHING = Symbol('clawgate.changesNothing');

/**
 * Whether a finished admin request belongs in the audit log: every write and every denial. A POST whose handler
 * declares `@ChangesNothing()` (validate, plan, a dry run) is not a write: recorded only when it is denied.
 */
export function isAuditable(method: string, status: number, changesNothing = false): boolean {
  return (isWriteMethod(method) && !changesNothing) || status === 401 || status === 403;
}

/** Marks a request routed to a `@ChangesNothing()` handler (the role guard does, once it knows the handler). */
export function markChangesNothing(req: Request): void {
  (req as Request & { [CHANGES_NOTHING]?: boolean })[CHANGES_NOTHING] = true;
}

/**
 * `<stateDir>/audit.jsonl` (or, with `gateway.state.backend: "postgres"`, one table the replicas share: audit-store.ts):
 * one JSON line per admin write and per denied admin request, appended in order, never rewritten. Lines hold who,
 * from where, what and the outcome — never a credential: the path is recorded without its query string and the line
 * passes through the secret masker.
 * Format: docs/admin-security.md#9-audit-log.
 */
@Injectable()
export class AuditLog implements OnApplicationShutdown {
  private readonly logger = new Logger('audit');
  /** Appends run one after another so lines never interleave and keep their order. */
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly config: ConfigStore,
    /** The store `gateway.state` names (admin.module.ts). A server that fails an entry may be back for the next one. */
    @Inject(AUDIT_STORE) private readonly store: AuditStore,
  ) {}

  /** Records the request when its response is done, if it is a write or was denied. Idempotent per request. */
  track(req: Request, res: Response): void {
    const marked = req as Request & { [TRACKED]?: boolean };
    if (marked[TRACKED]) return;
    marked[TRACKED] = true;
    let done = false;
    const record = (aborted: boolean) => {
      if (done) return;
      done = true;
      // A client that hung up before the answer: 499 (as nginx logs it) unless a status was already sent.
      const status = aborted && !res.headersSent ? 499 : res.statusCode;
      const changesNothing = (req as Request & { [CHANGES_NOTHING]?: boolean })[CHANGES_NOTHING] === true;
      if (isAuditable(req.method, status, changesNothing)) void this.append(this.entryFor(req, status));
    };
    res.once('finish', () => record(false));
    res.once('close', () => record(true));
  }

  /** Appends one entry (queued behind earlier ones). Failures are logged, never thrown at the caller. */
  append(entry: AuditEntry): Promise<void> {
    if (this.closed) return Promise.resolve();
    const line = `${maskSecrets(JSON.stringify(entry))}\n`;
    this.queue = this.queue.then(async () => {
      try {
        await this.store.append(line);
      } catch (err) {
        this.logger.error(`could not append to the audit log: ${(err as Error).message}`);
      }
    });
    return this.queue;
  }

  /** Resolves once every entry recorded so far is on disk. */
  flush(): Promise<void> {
    return this.queue;
  }

  page(limit: number, before?: number): Promise<AuditPage> {
    return this.queue.then(() => this.store.page(limit, before));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue;
    this.closed = true;
    await this.store.close();
  }

  private entryFor(req: Request, status: number): AuditEntry {
    const snapshot = this.config.current();
    const principal = getPrincipal(req);
    const gateway = snapshot.config.gateway;
    return {
      ts: new Date().toISOString(),
      subject: principal?.subject ?? 'anonymous',
      role: principal?.role ?? 'none',
      ip: clientAddress(req, forwardingProxies(gateway)) ?? null,
      method: req.method.toUpperCase(),
      path: req.originalUrl.split('?')[0],
      status,
      revision: snapshot.revision,
    };
  }
}
