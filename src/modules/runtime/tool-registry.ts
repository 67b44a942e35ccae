import { Injectable } from '@nestjs/common';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import type { ResolvedAgent } from '../config';
import type { WorkOrigin } from '../../common/work-origin';
import type { InterSessionProvenance } from '../sessions';
import type { ToolSpec } from './model-provider.port';
import type { StopWork } from './abort-cascade';
import { ToolResult, toolResultFromError } from './tool-result';
import { AppError } from '../../common/errors/app-error';
import { isMcpToolEntry, mcpEntryMatches } from '../../common/mcp-tool-policy';

/** Who is calling a tool: the session whose model asked for it. */
export interface ToolContext {
  sessionKey: string;
  agentId: string;
  runId?: string;
  signal: AbortSignal;
  /** Provenance of the message being answered (carries the agent-to-agent chain). */
  provenance?: InterSessionProvenance;
  /**
   * Where the calling run's work started (docs/usage.md#budgets-follow-the-work): a tool that starts more work (a run in
   * another session, a task at a peer) hands it on. Absent when no run is calling.
   */
  origin?: WorkOrigin;
  /**
   * Ties work the tool started outside this run (a run in another session, a task at a peer) to the run's
   * abort: `stop` is called when the run is aborted (at once if it already is), and the run ends only after
   * the promise `stop` returns has settled (docs/runtime.md#aborts-and-shutdown). Absent when no run is calling (the admin API).
   */
  onAbort?(stop: StopWork): void;
  /** The per-run tools this run was offered (StartRunInput.perRunTools). */
  perRunTools?: readonly string[];
  /**
   * Ends the run's turn after this round's tools, with `reply` as its final text, instead of asking the model again
   * (sessions_yield). Absent when no run is calling.
   */
  endTurn?(reply: string): void;
}

export type { ToolResult } from './tool-result';

export interface AgentTool<A = Record<string, unknown>> extends ToolSpec {
  /**
   * Offered only to runs whose starter names it in `perRunTools` — a tool that needs what only that kind of run has
   * (request_input needs an A2A task to ask through). Other tools are offered to every run.
   */
  perRun?: boolean;
  /**
   * The name `tools.allow`/`deny` match, when it is not `name`: an MCP tool is `mcp:<server>:<tool>` to the policy and
   * `mcp__<server>__<tool>` to the model, whose function names cannot hold `:` (docs/mcp.md).
   */
  policyName?: string;
  handler(ctx: ToolContext, args: A): Promise<ToolResult>;
}

/**
 * Makes tools ready before a run of `agent` is offered them: a source of tools that starts on demand (an MCP server
 * started lazily) connects and registers them here. It should not throw; a source that cannot get ready leaves its
 * tools out of the run.
 */
export type ToolPreparer = (agent: Pick<ResolvedAgent, 'id' | 'tools'>, signal: AbortSignal) => Promise<void>;

interface RegisteredTool {
  tool: AgentTool;
  validate: ValidateFunction;
}

/**
 * Every tool an agent's model can call, filtered per agent by `tools.allow/deny` (deny wins; an empty
 * allow list means all). Arguments are validated against the tool's JSON Schema before the handler runs,
 * and problems go back to the model as `{status: "error", error}` naming the argument.
 */
@Injectable()
export class ToolRegistry {
  private readonly ajv = new Ajv({ allErrors: true, strict: false });
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly preparers = new Set<ToolPreparer>();

  register<A>(tool: AgentTool<A>): void {
    if (this.tools.has(tool.name)) throw new Error(`tool ${tool.name} is registered twice`);
    this.tools.set(tool.name, { tool: tool as unknown as AgentTool, validate: this.ajv.compile(tool.parameters) });
  }

  /** Takes a tool out (a plugin's, when the plugin is unloaded): runs started after this are not offered it. */
  unregister(name: string): boolean {
    return this.tools.delete(name);
  }

  /** Adds a preparer the runner awaits before each run takes its tools; returns its removal. */
  addPreparer(preparer: ToolPreparer): () => void {
    this.preparers.add(preparer);
    return () => this.preparers.delete(preparer);
  }

  /** Awaits every preparer for a run of `agent` (none: nothing to await). */
  async prepare(agent: Pick<ResolvedAgent, 'id' | 'tools'>, signal: AbortSignal): Promise<void> {
    if (this.preparers.size === 0) return;
    await Promise.all([...this.preparers].map((prepare) => prepare(agent, signal).catch(() => undefined)));
  }

  /** The name `tools.allow`/`deny` (and `tools.requiresApproval`) match for a tool the model calls by `name`. */
  policyNameOf(name: string): string {
    return this.tools.get(name)?.tool.policyName ?? name;
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** The tools this agent may use in a run offered `perRunTools`, in registration order. */
  toolsFor(agent: Pick<ResolvedAgent, 'tools'>, perRunTools: readonly string[] = []): AgentTool[] {
    return [...this.tools.values()]
      .map((t) => t.tool)
      .filter((t) => isOffered(t, perRunTools) && isToolAllowed(agent, t.policyName ?? t.name));
  }

  /**
   * Arguments problems of a call, or undefined when they are valid. The admin API uses this to answer 400
   * before acting as a session (the operator is not subject to the agent's tools.allow/deny).
   */
  argumentError(name: string, args: unknown): string | undefined {
    const entry = this.tools.get(name);
    if (!entry) return `unknown tool "${name}"`;
    return entry.validate(args ?? {}) ? undefined : describeErrors(entry.validate.errors ?? []);
  }

  /** Runs a tool call from the model; never throws — every failure becomes an error result. */
  async call(agent: Pick<ResolvedAgent, 'tools'>, name: string, args: unknown, ctx: ToolContext): Promise<ToolResult> {
    const entry = this.tools.get(name);
    if (!entry || !isOffered(entry.tool, ctx.perRunTools ?? []) || !isToolAllowed(agent, entry.tool.policyName ?? name)) {
      return {
        status: 'error',
        error: `unknown tool "${name}"; available: ${
          this.toolsFor(agent, ctx.perRunTools)
            .map((t) => t.name)
            .join(', ') || 'none'
        }`,
      };
    }
    const input = args ?? {};
    if (!entry.validate(input)) {
      return { status: 'error', error: `invalid arguments for ${name}: ${describeErrors(entry.validate.errors ?? [])}` };
    }
    try {
      return await entry.tool.handler(ctx, input as Record<string, unknown>);
    } catch (err) {
      if (err instanceof AppError) return toolResultFromError(err, {}, `${name} failed: `);
      return { status: 'error', error: `${name} failed: ${(err as Error).message}` };
    }
  }
}

function isOffered(tool: AgentTool, perRunTools: readonly string[]): boolean {
  return !tool.perRun || perRunTools.includes(tool.name);
}

/**
 * `tools.allow/deny` of an agent: deny wins (`*` denies every tool); an allow list without other entries than `mcp:`
 * ones (or none) allows every tool that is not an MCP tool. An MCP tool (`mcp:<server>:<tool>`) is allowed only when an
 * `mcp:` entry of the allow list matches it (docs/mcp.md#which-agents-get-which-tools): a server's tools reach no
 * agent the operator did not name.
 */
export function isToolAllowed(agent: Pick<ResolvedAgent, 'tools'>, name: string): boolean {
  const { allow, deny } = agent.tools;
  if (deny.includes('*')) return false;
  if (isMcpToolEntry(name)) {
    const matches = (entry: string) => isMcpToolEntry(entry) && mcpEntryMatches(entry, name);
    return !deny.some(matches) && allow.some(matches);
  }
  if (deny.includes(name)) return false;
  return allow.includes(name) || allow.every(isMcpToolEntry);
}

function describeErrors(errors: ErrorObject[]): string {
  return errors
    .map((e) => {
      const where = e.instancePath ? `argument "${e.instancePath.slice(1).replace(/\//g, '.')}"` : 'arguments';
      if (e.keyword === 'required') return `missing required argument "${(e.params as { missingProperty: string }).missingProperty}"`;
      if (e.keyword === 'additionalProperties')
        return `unknown argument "${(e.params as { additionalProperty: string }).additionalProperty}"`;
      return `${where} ${e.message}`;
    })
    .join('; ');
}
