import type { ResolvedAgent, ToolPolicy } from '../config';
import { isSandboxedSession, parseSessionKey } from '../sessions';

/**
 * The tool policy of one run: the agent's own, or — when `tools.sandbox.tools` / `tools.subagents.tools` narrow the
 * agent's sandboxed or spawned sessions (ResolvedAgent.sessionTools) — the narrowed one for the session the run is in.
 * A key that does not parse gets the narrowest policy that could apply: it cannot be told apart from a sandboxed or
 * spawned session, and failing closed costs only tools.
 */
export function toolPolicyForSession(
  agent: Pick<ResolvedAgent, 'tools' | 'sessionTools' | 'sandbox'>,
  sessionKey: string,
  mainKey: string,
): ToolPolicy {
  const narrowed = agent.sessionTools;
  if (!narrowed) return agent.tools;
  const session = parseSessionKey(sessionKey);
  if (!session) return narrowed.sandboxedSubagent;
  const spawned = session.kind === 'subagent';
  const sandboxed = isSandboxedSession(agent.sandbox.mode, session, mainKey);
  if (spawned && sandboxed) return narrowed.sandboxedSubagent;
  if (spawned) return narrowed.subagent;
  return sandboxed ? narrowed.sandboxed : agent.tools;
}
