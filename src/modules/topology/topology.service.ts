import { Inject, Injectable } from '@nestjs/common';
import { A2aTaskCounts } from '../a2a-channel';
import { ConfigLoadError, ConfigStore, type ConfigIssue, type RuntimeSnapshot } from '../config';
import { ConfigPlanService, type PlanCandidate } from '../config-plan';
import { McpClients } from '../mcp';
import { PolicyCheckService } from '../session-policy';
import { ExchangeRecorder } from '../session-tools';
import { USAGE_STORE, type UsageStore } from '../usage';
import { buildTopology, type PairCheck } from './build-topology';
import { GraphvizRenderer } from './graphviz-renderer';
import { diffTopology, type TopologyDiff } from './topology-diff';
import { topologyDot, type PlanSide } from './topology-dot';
import type { TopologyGraph } from './topology-graph';
import { spendEdges } from './topology-spend';
import { weighEdges, type TopologyTraffic } from './topology-traffic';
import { DEFAULT_WINDOW, windowMs } from './topology-window';

export interface TopologyQuery {
  window?: string;
  denied?: 'true' | 'false';
}

export type Topology = TopologyGraph & { traffic: TopologyTraffic };

export interface TopologyPlan {
  valid: boolean;
  revision: string;
  candidateRevision: string | null;
  errors: ConfigIssue[];
  diff: TopologyDiff | null;
}

/** `/admin/topology`: the graph of the served config with the traffic of a window, its picture, and a plan's picture. */
@Injectable()
export class TopologyService {
  private readonly check: PairCheck = (snapshot, from, to) => this.policy.checkIn(snapshot, { from, to });

  constructor(
    private readonly config: ConfigStore,
    private readonly policy: PolicyCheckService,
    private readonly planner: ConfigPlanService,
    private readonly exchanges: ExchangeRecorder,
    private readonly tasks: A2aTaskCounts,
    private readonly renderer: GraphvizRenderer,
    private readonly mcp: McpClients,
    @Inject(USAGE_STORE) private readonly usage: UsageStore,
  ) {}

  async topology(query: TopologyQuery): Promise<Topology> {
    const window = query.window ?? DEFAULT_WINDOW;
    const now = Date.now();
    const since = now - windowMs(window);
    // One snapshot for the whole answer, so a reload in between cannot mix two configs.
    const snapshot = this.config.current();
    const graph = await buildTopology(snapshot, this.check, {
      denied: query.denied === 'true',
      pluginMcpServers: this.mcp.pluginMcpServers(),
    });
    const traffic: TopologyTraffic = {
      window,
      since: new Date(since).toISOString(),
      sessionsSend: await this.exchanges.pairCounts(since),
      a2aTasks: await this.tasks.countsSince(Object.keys(snapshot.config.channels.a2a.peers), since),
      spend: await this.usage.routeSpend(since, now + 1),
    };
    weighEdges(graph, traffic);
    spendEdges(graph, traffic.spend);
    return { ...graph, traffic };
  }

  async svg(query: TopologyQuery): Promise<string> {
    const topology = await this.topology(query);
    const title = `clawgate topology · revision ${topology.revision} · traffic of the last ${topology.traffic.window}`;
    return this.renderer.render(topologyDot(topology, title));
  }

  async plan(candidate: PlanCandidate): Promise<TopologyPlan> {
    const compared = await this.compare(candidate);
    if (!compared.ok) return { valid: false, revision: compared.revision, candidateRevision: null, errors: compared.errors, diff: null };
    const { before, after } = compared;
    return {
      valid: true,
      revision: before.revision,
      candidateRevision: after.revision,
      errors: [],
      diff: diffTopology(before, after).diff,
    };
  }

  /**
   * One side of a plan's picture, an invalid candidate being a 422. Both sides draw the same graph (the candidate's
   * plus what it loses), so they share one layout: `after` marks what the plan adds in green and what it removes
   * dashed in red; `before` shows the config as served, what the plan adds left blank where it will appear.
   */
  async planSvg(candidate: PlanCandidate, side: PlanSide = 'after'): Promise<string> {
    const compared = await this.compare(candidate);
    // The pipeline's own 422 (every issue, formatted as validate and reload format them): there is no candidate to draw.
    if (!compared.ok) throw new ConfigLoadError(compared.errors);
    const { union } = diffTopology(compared.before, compared.after);
    const { before, after } = { before: compared.before.revision, after: compared.after.revision };
    const title =
      side === 'before'
        ? `clawgate topology plan · before: revision ${before} (→ ${after})`
        : `clawgate topology plan · after: revision ${after} (← ${before})`;
    return this.renderer.render(topologyDot(union, title, { side }));
  }

  /** The candidate through config-plan's own pipeline, both sides drawn from their snapshots. Plans show allowed pairs only. */
  private async compare(candidate: PlanCandidate) {
    const { current, result } = await this.planner.candidate(candidate);
    if (!result.ok) return { ok: false as const, revision: current.revision, errors: result.errors };
    // The servers plugins registered are the same on both sides: a plan changes the config, not what plugins hold.
    const pluginMcpServers = this.mcp.pluginMcpServers();
    const graphOf = (snapshot: RuntimeSnapshot) => buildTopology(snapshot, this.check, { denied: false, pluginMcpServers });
    const [before, after] = await Promise.all([graphOf(current), graphOf(result.snapshot)]);
    return { ok: true as const, before, after };
  }
}
