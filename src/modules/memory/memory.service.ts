import * as path from 'node:path';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { SpanKind } from '@opentelemetry/api';
import { CLAWGATE } from '../../common/telemetry/span-attributes';
import { Tracing } from '../../common/telemetry/tracing';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { AgentsService } from '../agents';
import { ConfigStore, GATEWAY_OPTIONS, type GatewayOptions, type ResolvedAgent, type RuntimeSnapshot } from '../config';
import { GatewayMetrics, type MemoryIndexStats } from '../metrics';
import { SESSION_STORE, type SessionStore } from '../sessions';
import { AgentMemory } from './agent-memory';
import { CollectionSources } from './collection-source';
import { createEmbedder, embedderSettingsKey } from './embedder-factory';
import type { Embedder } from './embedder.port';
import { FileSource } from './file-source';
import { agentCollections, CollectionKind, ignoredByBuiltin, MemoryCollection } from './memory-collections';
import { notFound, resolveMemoryPath, sliceLines } from './memory-path-guard';
import type { SearchHit } from './memory-searcher';
import type { MemoryGetArgs, MemorySearchArgs } from './memory-tool-schemas';
import { SessionSource } from './session-source';
import { SharedEmbeddings } from './shared-embeddings';
import { SqliteMemoryIndex } from './sqlite-memory-index';

export type MemorySearchResult = { status: 'ok'; results: SearchHit[] };
export type MemoryGetResult =
  | { status: 'ok'; path: string; text: string; from: number; to: number; totalLines: number; truncated: boolean }
  | { status: 'forbidden' | 'not_found'; error: string };

export interface CollectionView {
  name: string;
  kind: CollectionKind;
  path: string;
  pattern: string;
  files: number;
  chunks: number;
  embedded: number;
  /** Chunks still waiting for a vector of the current embedder (0 without an embedder). */
  pending: number;
  /** How long the oldest waiting chunk has waited since its file was indexed (0 when none waits). */
  lagMs: number;
  lastIndexedAt?: string;
}

export interface CollectionsView {
  agentId: string;
  backend: 'builtin' | 'qmd';
  embeddings: {
    provider: 'bundled' | 'bundled-static' | 'openai' | 'none';
    fingerprint: string | null;
    lastError?: string;
    /** bundled-static only: chunks still waiting for the bundled model's vector (docs/memory.md#the-static-embedder-bundled-static). */
    awaitingModel?: number;
    upgradeError?: string;
  };
  collections: CollectionView[];
}

export interface ReindexReport {
  agentId: string;
  indexed: number;
  unchanged: number;
  removed: number;
  skipped: string[];
  chunks: number;
  embedded: number;
  durationMs: number;
}

/** `<stateDir>/agents/<id>/memory/index.sqlite` */
export function memoryIndexPath(stateDir: string, agentId: string): string {
  return path.join(stateDir, 'agents', agentId, 'memory', 'index.sqlite');
}

/** `<stateDir>/memory/vectors.sqlite`: the vector cache every agent's index shares. */
export function sharedVectorsPath(stateDir: string): string {
  return path.join(stateDir, 'memory', 'vectors.sqlite');
}

/**
 * Per-agent memory (docs/memory.md#memory): opens an agent's index on first use, keeps its collections in line with the
 * config across reloads, and serves memory_search / memory_get and the admin memory endpoints. Every
 * operation is scoped to the collections of the agent it is called for; nothing else is reachable.
 */
@Injectable()
export class MemoryService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('memory');
  private readonly engines = new Map<string, AgentMemory>();
  private embedderState?: { key: string; embedder: Embedder | undefined };
  private unsubscribe?: () => void;
  private closed = false;
  /** Files, and the session store for collections on a session dir of this state dir. */
  private readonly sources: CollectionSources;
  /** One embedding per chunk text across agents (docs/memory.md#shared-vectors). */
  private readonly sharedEmbeddings = new SharedEmbeddings();

  constructor(
    private readonly config: ConfigStore,
    private readonly agents: AgentsService,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    @Inject(SESSION_STORE) sessions: SessionStore,
    @Optional() private readonly tracing: Tracing = new Tracing(),
    @Optional() private readonly metrics?: GatewayMetrics,
  ) {
    this.sources = new CollectionSources(new FileSource(), new SessionSource(sessions));
  }

  onModuleInit(): void {
    this.unsubscribe = this.config.onApplied((_prev, next) => this.apply(next));
    this.metrics?.observeMemoryIndex(async () => this.indexStats());
    this.metrics?.observeMemoryEmbedded(() => this.sharedEmbeddings.embeddedByEmbedder());
  }

  /** Size and embedding lag of every open index (memory is opened on first use; a scrape opens nothing). */
  indexStats(): MemoryIndexStats[] {
    const embedder = this.embedder();
    const now = Date.now();
    return [...this.engines.values()].map((engine) => {
      const stats = engine.stats();
      const oldest = stats.reduce<number | undefined>((min, s) => {
        const at = s.oldestPendingAt ? Date.parse(s.oldestPendingAt) : undefined;
        return at !== undefined && (min === undefined || at < min) ? at : min;
      }, undefined);
      return {
        agentId: engine.agentId,
        chunks: stats.reduce((n, s) => n + s.chunks, 0),
        pending: embedder ? stats.reduce((n, s) => n + s.chunks - s.embedded, 0) : 0,
        lagMs: embedder && oldest !== undefined ? Math.max(0, now - oldest) : 0,
        awaitingModel: engine.awaitingModel(),
      };
    });
  }

  async onModuleDestroy(): Promise<void> {
    // HTTP still answers while modules are destroyed: an engine opened now would outlive the shutdown.
    this.closed = true;
    this.unsubscribe?.();
    const engines = [...this.engines.values()];
    this.engines.clear();
    await Promise.all(engines.map((e) => e.close()));
    await this.embedderState?.embedder?.close?.();
  }

  /** The agent's memory, opened and indexed on first use; 404 for an agent that is not configured. */
  async forAgent(agentId: string): Promise<AgentMemory> {
    const agent = this.agents.get(agentId);
    if (this.closed) throw new AppError(ErrorCode.Unavailable, 'the gateway is shutting down');
    let engine = this.engines.get(agent.id);
    if (!engine) {
      engine = this.createEngine(agent);
      this.engines.set(agent.id, engine);
    }
    await this.agents.ensureWorkspace(agent);
    await engine.ready();
    return engine;
  }

  /** One search, in its own span (the agent and the number of hits; never the query). */
  search(agentId: string, args: MemorySearchArgs): Promise<MemorySearchResult> {
    return this.tracing.inSpan(
      'clawgate.memory.search',
      { kind: SpanKind.INTERNAL, attributes: { [CLAWGATE.agentId]: agentId, [CLAWGATE.memoryMode]: 'hybrid' } },
      async (span) => {
        const engine = await this.forAgent(agentId);
        const { qmd, citations } = this.config.current().config.memory;
        const results = await engine.search(args.query, {
          maxResults: args.maxResults ?? qmd.maxResults,
          minScore: args.minScore ?? qmd.minScore,
          maxSnippetChars: qmd.maxSnippetChars,
          citations: citations === 'on',
        });
        span.setAttribute(CLAWGATE.memoryResults, results.length);
        return { status: 'ok', results };
      },
    );
  }

  /** memory_get for the admin API: the same confinement, refusals as AppErrors (403 / 404). */
  async readFile(agentId: string, args: MemoryGetArgs): Promise<Extract<MemoryGetResult, { status: 'ok' }>> {
    const result = await this.get(agentId, args);
    if (result.status === 'ok') return result;
    throw new AppError(result.status === 'forbidden' ? ErrorCode.Forbidden : ErrorCode.NotFound, result.error);
  }

  async get(agentId: string, args: MemoryGetArgs): Promise<MemoryGetResult> {
    const engine = await this.forAgent(agentId);
    const resolved = await resolveMemoryPath(args.path, engine.workspaceDir, engine.currentCollections(), this.sources);
    if (resolved.status !== 'ok') return resolved;
    const read = await this.sources.for(resolved.collection).read(resolved.collection, resolved.document);
    if (read.status !== 'ok') return notFound(args.path.trim()); // deleted between the lookup and the read
    return { status: 'ok', path: resolved.display, ...sliceLines(read.text, args.from, args.lines) };
  }

  async collections(agentId: string): Promise<CollectionsView> {
    const engine = await this.forAgent(agentId);
    const stats = new Map(engine.stats().map((s) => [s.collectionKey, s]));
    const embedder = this.embedder();
    const now = Date.now();
    return {
      agentId: engine.agentId,
      backend: this.config.current().config.memory.backend,
      embeddings: {
        provider: this.config.current().config.memory.embeddings.provider,
        fingerprint: embedder?.fingerprint ?? null,
        ...(engine.embedError ? { lastError: engine.embedError } : {}),
        ...(embedder?.reranker?.model ? { awaitingModel: engine.awaitingModel() } : {}),
        ...(engine.upgradeError ? { upgradeError: engine.upgradeError } : {}),
      },
      collections: engine.currentCollections().map((c) => {
        const s = stats.get(c.key);
        return {
          name: c.name,
          kind: c.kind,
          path: c.root,
          pattern: c.pattern,
          files: s?.files ?? 0,
          chunks: s?.chunks ?? 0,
          embedded: s?.embedded ?? 0,
          pending: embedder && s ? s.chunks - s.embedded : 0,
          lagMs: embedder && s?.oldestPendingAt ? Math.max(0, now - Date.parse(s.oldestPendingAt)) : 0,
          ...(s?.lastIndexedAt ? { lastIndexedAt: s.lastIndexedAt } : {}),
        };
      }),
    };
  }

  /** Re-reads every file of the agent's collections and waits until keyword and vector indexes are complete. */
  async reindex(agentId: string): Promise<ReindexReport> {
    const engine = await this.forAgent(agentId);
    const counts = await engine.reindex();
    const totals = engine
      .stats()
      .reduce((t, s) => ({ chunks: t.chunks + s.chunks, embedded: t.embedded + s.embedded }), { chunks: 0, embedded: 0 });
    return { agentId: engine.agentId, ...counts, ...totals };
  }

  private createEngine(agent: ResolvedAgent): AgentMemory {
    const snapshot = this.config.current();
    const engine = new AgentMemory({
      agentId: agent.id,
      openIndex: () => {
        const stateDir = this.config.current().stateDir;
        return new SqliteMemoryIndex({
          file: memoryIndexPath(stateDir, agent.id),
          vectorFile: sharedVectorsPath(stateDir),
          owner: agent.id,
        });
      },
      sharedEmbeddings: this.sharedEmbeddings,
      embedder: () => this.embedder(),
      debounceMs: () => this.config.current().config.memory.qmd.debounceMs,
      logger: this.logger,
      sources: this.sources,
    });
    void engine.configure(agent.workspace, this.collectionsOf(agent, snapshot));
    return engine;
  }

  private collectionsOf(agent: ResolvedAgent, snapshot: RuntimeSnapshot): MemoryCollection[] {
    const ignored = ignoredByBuiltin(agent, snapshot.config.memory);
    if (ignored.length) {
      this.logger.warn(
        `memory of ${agent.id}: memory.backend is "builtin", so ${ignored.join(', ')} ${ignored.length > 1 ? 'are' : 'is'} not used; set memory.backend: "qmd"`,
      );
    }
    return agentCollections(agent, snapshot.config.memory, snapshot.config.agents, this.config.stateDir);
  }

  /** The embedder of the current settings; rebuilt only when they change, the bundled model shared anyway. */
  private embedder(): Embedder | undefined {
    const settings = this.config.current().config.memory.embeddings;
    const key = embedderSettingsKey(settings, this.options.env);
    if (this.embedderState?.key !== key) {
      // The old embedder's workers stop; a pass still using it fails and is run again with the new one.
      void this.embedderState?.embedder?.close?.().catch(() => undefined);
      this.embedderState = {
        key,
        embedder: createEmbedder(settings, this.options.env, {
          workers: () => this.config.current().config.memory.embeddings.workers,
          rerank: () => this.config.current().config.memory.embeddings.rerank,
          stateDir: () => this.config.current().stateDir,
          onEvent: (message) => this.logger.warn(message),
        }),
      };
    }
    return this.embedderState.embedder;
  }

  /** A reload: agents that went away are closed; the others get their new collections (and embedder). */
  private apply(next: RuntimeSnapshot): void {
    const embedderChanged =
      this.embedderState !== undefined && this.embedderState.key !== embedderSettingsKey(next.config.memory.embeddings, this.options.env);
    for (const [id, engine] of this.engines) {
      const agent = next.agentsById.get(id);
      if (!agent) {
        this.engines.delete(id);
        engine.close().catch((err: Error) => this.logger.warn(`memory of removed agent ${id} did not close cleanly: ${err.message}`));
        continue;
      }
      // Collections switch synchronously, in the tick of the swap: a grant removed by this reload is not
      // searchable by any request that sees the new revision. The resync and re-watch follow.
      engine
        .configure(agent.workspace, this.collectionsOf(agent, next))
        .catch((err: Error) => this.logger.warn(`memory of ${id} could not follow the new config: ${err.message}`));
      void this.agents.ensureWorkspace(agent).catch(() => undefined);
      if (embedderChanged) engine.embedderChanged();
    }
  }
}
