import type { MemoryCollectionSettings } from './memory.types';

/** The normalized agents: each entry of `agents.list` / `agents.entries` with `agents.defaults` and the tool levels applied. */

/** Which sessions of an agent run sandboxed: none, all but its main session, or all (OpenClaw's modes). */
export type SandboxMode = 'off' | 'non-main' | 'all';

/** A tool policy as the runtime applies it: deny wins (`*` denies all), an empty allow list allows every tool. */
export interface ToolPolicy {
  allow: string[];
  deny: string[];
}

/** The policies of an agent's sessions that a narrowing level applies to (ResolvedAgent.sessionTools). */
export interface SessionToolPolicies {
  sandboxed: ToolPolicy;
  subagent: ToolPolicy;
  /** A spawned session that is also sandboxed: both levels. */
  sandboxedSubagent: ToolPolicy;
}

/** A limit of sessions_spawn and the config key it was read from (named when a spawn is refused). */
export interface SubagentLimit {
  value: number;
  /** e.g. `agents.defaults.subagents.maxSpawnDepth`, `agents.list[1].subagents.maxChildrenPerAgent`. */
  key: string;
}

export interface ToolApprovalSettings {
  /** Tool names and `*` patterns (`group:` entries expanded); a call whose tool matches one waits. Empty: none. */
  tools: string[];
  timeoutMs: number;
  /** `<channel>:<sender id>` of the chat senders who may decide from a chat (`tools.approvers`). Empty: none. */
  approvers: string[];
}

export interface SubagentLimits {
  maxSpawnDepth: SubagentLimit;
  maxChildrenPerAgent: SubagentLimit;
}

export interface ResolvedAgent {
  id: string;
  isDefault: boolean;
  name?: string;
  /** Absolute paths, `~` expanded. */
  workspace: string;
  agentDir: string;
  sessionsDir: string;
  /** The primary model, `provider/model` (an alias resolved). */
  model: string;
  /** `provider/model` tried in order when the one before fails (docs/runtime.md#model-fallbacks); aliases resolved. */
  fallbacks: string[];
  identity: { name?: string; emoji?: string; avatar?: string };
  /** Operator-written; published only on the authenticated extended Agent Card. */
  description?: string;
  sandbox: { mode: SandboxMode; scope?: 'session' | 'agent' | 'shared' };
  tools: ToolPolicy;
  /**
   * The tools of the agent's sandboxed and spawned sessions when `tools.sandbox.tools` (or the agent's
   * `tools.sandbox.tools`) or `tools.subagents.tools` narrows them (docs/configuration.md#tools); each is
   * `tools` with those levels applied. Absent: every session of the agent has `tools`.
   */
  sessionTools?: SessionToolPolicies;
  extraCollections: MemoryCollectionSettings[];
  /** The limits of the tree of sessions this agent's sessions spawn (docs/sessions.md#spawn-limits). */
  subagents: SubagentLimits;
  /** Which of its tools' calls wait for an operator's decision, and how long (docs/approvals.md). */
  approvals: ToolApprovalSettings;
  /** Where the entry sits in openclaw.json (for the writer), e.g. `['agents','list',2]`. */
  source: Array<string | number>;
}
