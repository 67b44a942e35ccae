import type { SessionVisibility } from '../config';

/*
 * The user-facing texts of layers 2 and 3 (docs/sessions.md#refusal-messages). They are part of the contract — a model
 * reads them in tool results and operators grep logs for them — so they live in one place and are matched
 * verbatim by the tests.
 */

/** Layer 3: `tools.agentToAgent.enabled` is not exactly `true`. */
export const AGENT_TO_AGENT_DISABLED_MESSAGE = 'Agent-to-agent messaging is disabled.';

/** Layer 3: enabled, but the requester or the target agent matches no `tools.agentToAgent.allow` pattern. */
export const AGENT_TO_AGENT_DENIED_MESSAGE = 'Agent-to-agent messaging denied by tools.agentToAgent.allow.';

/** Layer 2: names the effective visibility (after the sandbox clamp), not necessarily the configured one. */
export function visibilityForbiddenMessage(visibility: SessionVisibility): string {
  return `Session is not visible from this session (tools.sessions.visibility=${visibility}).`;
}

/** sessions_send: a sandboxed caller asked to resolve a label in another agent. */
export const SANDBOX_LABEL_LOOKUP_MESSAGE = 'Sandboxed sessions_send label lookup is limited to this agent';
