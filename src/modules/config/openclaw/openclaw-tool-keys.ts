import { implemented, OpenClawKey, refused, unsupportedNames } from './openclaw-key-tree';

/**
 * OpenClaw's `tools` section (openclaw-keys.ts), and the pieces of it an agent's own `tools` repeats
 * (openclaw-agent-keys.ts).
 */

/** Why tool policies stay errors until clawgate maps them onto its own (agents.*.tools.allow/deny). */
export const TOOL_POLICY =
  "an OpenClaw tool policy; ignoring it could give agents tools it takes away (clawgate's own: agents.*.tools.allow / deny)";

/** `tools.sandbox.tools` and an agent's `tools.sandbox.tools`: narrows sandboxed sessions' tools (openclaw-tool-policy.ts). */
export const sandboxTools = implemented({
  tools: implemented({ allow: implemented(), deny: implemented(), alsoAllow: implemented() }),
});

/** `tools`: the tool policies of every agent, agent-to-agent messaging and session visibility. */
export const TOOLS_KEYS: OpenClawKey = implemented({
  agentToAgent: implemented({ enabled: implemented(), allow: implemented() }),
  sessions: implemented({ visibility: implemented() }),
  profile: implemented(),
  allow: implemented(),
  deny: implemented(),
  alsoAllow: implemented(),
  byProvider: refused(TOOL_POLICY),
  sandbox: sandboxTools,
  subagents: implemented({ tools: implemented({ allow: implemented(), deny: implemented() }) }),
  toolsBySender: refused(TOOL_POLICY),
  ...unsupportedNames(`
    codeMode elevated exec experimental fs github loopDetection media message sessions_spawn swarm toolSearch updatePlan
    web`),
});
