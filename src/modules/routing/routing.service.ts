import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ConfigStore, type ResolvedBinding, type RuntimeSnapshot } from '../config';
import { bindingAt, DEFAULT_ACCOUNT_ID, InboundMessage, resolveRoute, RouteResult } from './route-resolver';

/** Bounded LRU of route results [4000] (docs/routing.md#route-cache). */
export const ROUTE_CACHE_MAX = 4000;

export interface RouteExplanation extends RouteResult {
  /** The binding that decided the route, as normalized (aliases applied); null for the default agent. */
  binding: ResolvedBinding | null;
}

export interface RouteCacheStats {
  /** Revision the cached entries belong to (null before the first resolve). */
  revision: string | null;
  size: number;
  max: number;
  hits: number;
  misses: number;
  /** Times a new revision dropped the cache. */
  resets: number;
}

/**
 * A cached result is shared by every caller that resolves the same inbound, so it is typed read-only all
 * the way down. Not Object.freeze'd at runtime: freezing each new result cost ~4x throughput when the LRU
 * churns (measured in bench/routing.bench.ts), and every caller is TypeScript.
 */
export type CachedRoute = Readonly<Omit<RouteResult, 'matchedBy'> & { matchedBy: Readonly<RouteResult['matchedBy']> }>;

/** Minimal view of ConfigStore this service needs, so benches and tests can drive it without Nest. */
export type SnapshotSource = Pick<ConfigStore, 'current'>;

/**
 * Routes inbound messages (layer 1) over the current snapshot, memoizing results per config revision.
 * The cache is keyed by revision rather than cleared from an `onApplied` listener: every call compares the
 * revision of the snapshot it reads, so a result can never outlive the config that produced it, and a
 * comments-only reload (same revision) keeps its warm cache.
 */
@Injectable()
export class RoutingService {
  private readonly cache = new LRUCache<string, CachedRoute>({ max: ROUTE_CACHE_MAX });
  private cacheRevision: string | null = null;
  private hits = 0;
  private misses = 0;
  private resets = 0;

  /** Typed as the narrow SnapshotSource so benches and tests can construct it over a bare snapshot. */
  constructor(@Inject(ConfigStore) private readonly configStore: SnapshotSource) {}

  /** `{agentId, sessionKey, matchedBy}` for an inbound message. The result is shared: do not mutate it. */
  resolve(inbound: InboundMessage): CachedRoute {
    return this.resolveIn(this.configStore.current(), inbound);
  }

  /** The route plus the binding that decided it, both from the same snapshot (admin dry-run). */
  explain(inbound: InboundMessage): RouteExplanation {
    const snapshot = this.configStore.current();
    const result = this.resolveIn(snapshot, inbound);
    return {
      agentId: result.agentId,
      sessionKey: result.sessionKey,
      matchedBy: { ...result.matchedBy },
      binding: bindingAt(snapshot.config, result.matchedBy.bindingIndex),
    };
  }

  stats(): RouteCacheStats {
    return {
      revision: this.cacheRevision,
      size: this.cache.size,
      max: ROUTE_CACHE_MAX,
      hits: this.hits,
      misses: this.misses,
      resets: this.resets,
    };
  }

  private resolveIn(snapshot: RuntimeSnapshot, inbound: InboundMessage): CachedRoute {
    if (snapshot.revision !== this.cacheRevision) {
      if (this.cacheRevision !== null) this.resets++;
      this.cache.clear();
      this.cacheRevision = snapshot.revision;
    }
    const key = cacheKey(inbound);
    const cached = this.cache.get(key);
    if (cached) {
      this.hits++;
      return cached;
    }
    this.misses++;
    const result: CachedRoute = resolveRoute(snapshot.config, inbound);
    this.cache.set(key, result);
    return result;
  }
}

/**
 * Everything that can change a route or its session key, length-prefixed so distinct inbounds never
 * collide. An empty/missing accountId and "default" are the same account, so they share an entry.
 */
function cacheKey(m: InboundMessage): string {
  const p = (v: string | undefined) => (v === undefined ? '-' : `${v.length}:${v}`);
  return (
    p(m.channel) +
    p(m.accountId || DEFAULT_ACCOUNT_ID) +
    (m.peer ? p(m.peer.kind) + p(m.peer.id) : '-') +
    p(m.guildId) +
    p(m.teamId) +
    p(m.threadId || undefined)
  );
}
