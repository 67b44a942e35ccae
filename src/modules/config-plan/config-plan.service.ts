import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Injectable, Optional } from '@nestjs/common';
import { conflict } from '../../common/errors/app-error';
import { ConfigStore, locateIssues, type ConfigFileText, type ConfigIssue, type LoadResult, type RuntimeSnapshot } from '../config';
import { McpClients } from '../mcp';
import { PolicyCheckService } from '../session-policy';
import { a2aImpact, type A2aImpact } from './a2a-impact';
import { adminImpact, type AdminImpact } from './admin-impact';
import { agentToAgentImpact, type AgentToAgentImpactEntry } from './agent-to-agent-impact';
import { approvalImpact, type ApprovalImpactEntry } from './approval-impact';
import { budgetImpact, type BudgetImpact } from './budget-impact';
import { candidateFiles, type PlanCandidate } from './candidate-text';
import { mcpImpact, type McpImpact } from './mcp-impact';
import { memoryImpact, type MemoryImpact } from './memory-impact';
import { pluginImpact, type PluginImpact } from './plugin-impact';
import { redactedDiff } from './redacted-diff';
import { routingImpact, type RoutingImpactEntry } from './routing-impact';
import { splitKeys } from './value-change';

export interface PlanImpact {
  /** Agents configured only after the change, and only before it. */
  agents: { added: string[]; removed: string[] };
  routing: RoutingImpactEntry[];
  agentToAgent: AgentToAgentImpactEntry[];
  memory: MemoryImpact;
  a2a: A2aImpact;
  admin: AdminImpact;
  plugins: PluginImpact;
  mcp: McpImpact;
  /** Budgets added, removed and changed, and the agents, peers, keys and accounts whose budgets change. */
  budgets: BudgetImpact;
  /** Agents whose tool calls start or stop waiting for an operator (tools.requiresApproval), or wait for another time. */
  approvals: ApprovalImpactEntry[];
}

export interface ConfigPlan {
  valid: boolean;
  /** The revision being served, which the impact compares against. */
  revision: string;
  /** The revision the candidate would get; null when it is invalid. */
  candidateRevision: string | null;
  errors: ConfigIssue[];
  warnings: ConfigIssue[];
  diff: string;
  pendingRestart: string[];
  /** Null when the candidate is invalid (there is no "after" to compare). */
  impact: PlanImpact | null;
}

/** A candidate loaded through the reload pipeline: the served snapshot, the files on disk, the changed ones, the outcome. */
export interface PlanCandidateResult {
  current: RuntimeSnapshot;
  /** The served config's files as they are on disk, the root first. */
  files: ConfigFileText[];
  /** The candidate's text of each file it changes, by path. */
  changes: Map<string, string>;
  result: LoadResult;
}

/**
 * `POST /admin/config/plan`: what a candidate config would change, with nothing applied or written. The
 * candidate runs through the store's own pipeline (the reload's: same config path for `$include`, same
 * environment for `${VAR}`), and the resulting snapshot is only compared, never swapped in.
 */
@Injectable()
export class ConfigPlanService {
  constructor(
    private readonly store: ConfigStore,
    private readonly policy: PolicyCheckService,
    /** The tools MCP servers list now (which MCP tools an agent gains or loses); absent where no MCP client runs. */
    @Optional() private readonly mcp?: McpClients,
  ) {}

  async plan(candidate: PlanCandidate): Promise<ConfigPlan> {
    const { current, files, changes, result } = await this.candidate(candidate);
    const root = files[0];
    const diff = files
      .map((f, i) => {
        const name = i === 0 ? path.basename(current.configPath) : path.relative(path.dirname(root.path), f.path);
        return redactedDiff(name, f.text, changes.get(f.path) ?? f.text);
      })
      .join('');
    // Each issue with the line of the candidate's root text it is about (what the console's editor marks).
    const rootText = changes.get(root.path) ?? root.text;
    const locate = (issues: ConfigIssue[]) => locateIssues(issues, rootText, current.configPath);
    if (!result.ok) {
      return {
        valid: false,
        revision: current.revision,
        candidateRevision: null,
        errors: locate(result.errors),
        warnings: locate(result.warnings),
        diff,
        pendingRestart: [],
        impact: null,
      };
    }
    const next = result.snapshot;
    return {
      valid: true,
      revision: current.revision,
      candidateRevision: next.revision,
      errors: [],
      warnings: locate(result.warnings),
      diff,
      pendingRestart: this.store.pendingRestartFor(next),
      impact: await this.impact(current, next),
    };
  }

  /**
   * The served snapshot, its files on disk (the root first), the candidate's changed texts by path, and what the
   * candidate loads to through the reload pipeline (a snapshot, or the errors), nothing applied. Bad candidate
   * input is a 400, a file on disk that cannot be read a 409.
   */
  async candidate(candidate: PlanCandidate): Promise<PlanCandidateResult> {
    const current = this.store.current();
    const files = await readFiles(current);
    const changes = candidateFiles(candidate, files);
    const root = files[0];
    const result = await this.store.validateFiles(
      changes.get(root.path) ?? root.text,
      new Map([...changes].filter(([f]) => f !== root.path)),
    );
    return { current, files, changes, result };
  }

  /** What changes between two snapshots: the impact a plan shows, and what a write and the history report. */
  async impact(before: RuntimeSnapshot, after: RuntimeSnapshot): Promise<PlanImpact> {
    const agents = splitKeys(before.agentsById.keys(), after.agentsById.keys());
    return {
      agents: { added: agents.added, removed: agents.removed },
      routing: routingImpact(before.config, after.config),
      agentToAgent: await agentToAgentImpact(before, after, (snapshot, from, to) => this.policy.checkIn(snapshot, { from, to })),
      memory: memoryImpact(before, after),
      a2a: a2aImpact(before.config, after.config),
      admin: adminImpact(before.config.gateway.admin, after.config.gateway.admin),
      plugins: pluginImpact(before.plugins, after.plugins),
      mcp: mcpImpact(
        before,
        after,
        this.knownMcpTools(),
        (this.mcp?.pluginMcpServers() ?? []).map((s) => s.settings),
      ),
      budgets: budgetImpact(before.config, after.config),
      approvals: approvalImpact(before, after),
    };
  }

  /** The tool names each MCP server listed last, read once for one impact. */
  private knownMcpTools(): (server: string) => string[] | undefined {
    const listed = new Map((this.mcp?.list() ?? []).map((s) => [s.name, s.tools.map((t) => t.name)]));
    return (server) => listed.get(server);
  }
}

/** Every file of the served config as it is on disk, the root first. */
async function readFiles(current: RuntimeSnapshot): Promise<ConfigFileText[]> {
  return Promise.all(
    current.files.map(async (file, i) => {
      const at = i === 0 ? current.configPath : file;
      try {
        return { path: file, text: await fs.readFile(at, 'utf8') };
      } catch (err) {
        throw conflict(`cannot read ${at} (${(err as NodeJS.ErrnoException).code}); a plan compares against the files on disk`);
      }
    }),
  );
}
