/**
 * Layer 2 + 3: may the session R (requester) see or act on the session T (target)?
 * The one check behind every session tool and every admin endpoint that acts as a session. Pure over the
 * config; the only outside fact it needs — "was T spawned by R?" — is passed in as a lookup.
 * The rules: docs/sessions.md#who-may-see-which-session.
 */
import type { ResolvedAgent, RuntimeSnapshot, SessionVisibility } from '../config';
import {
  AGENT_TO_AGENT_DENIED_MESSAGE,
  AGENT_TO_AGENT_DISABLED_MESSAGE,
  SANDBOX_LABEL_LOOKUP_MESSAGE,
  visibilityForbiddenMessage,
} from './session-policy.messages';
import { AgentToAgentSettingsInput, createAgentToAgentPolicy } from './agent-to-agent-policy';
import { isSandboxedSession, parseSessionKey, type ParsedSessionKey } from '../sessions';

/** The slice of NormalizedConfig the guard reads; a NormalizedConfig or a RuntimeSnapshot both fit. */
export interface SessionAccessConfig {
  readonly agents: ReadonlyArray<Pick<ResolvedAgent, 'id' | 'sandbox'>>;
  readonly tools: {
    readonly agentToAgent: AgentToAgentSettingsInput;
    readonly sessions: { readonly visibility: SessionVisibility };
  };
  /** The main session's name, for `sandbox.mode: "non-main"`; "main" when absent. */
  readonly session?: { readonly mainKey: string };
}

/** True when `targetKey` descends from `ancestorKey` (SessionStore.isSpawnedBy). */
export type SpawnLookup = (targetKey: string, ancestorKey: string) => Promise<boolean>;

export interface SessionAccessInput {
  requesterKey: string;
  targetKey: string;
  config: SessionAccessConfig | Pick<RuntimeSnapshot, 'config'>;
  isSpawnedBy: SpawnLookup;
}

export type SessionAccessLayer = 'visibility' | 'policy';

/**
 * `rule` is a short machine-readable reason; `message` is the exact user-facing text
 * (docs/sessions.md#refusal-messages).
 */
export type SessionAccessDecision =
  { allowed: true; layer: null; rule: string } | { allowed: false; layer: SessionAccessLayer; rule: string; message: string };

const SANDBOX_RULE = 'sandbox clamps visibility to tree';

/** Narrowest first: clamping keeps whichever of two visibilities is narrower. */
const VISIBILITY_ORDER: readonly SessionVisibility[] = ['self', 'tree', 'agent', 'all'];

/**
 * A sandboxed requester never sees more than `tree`. Clamping only narrows: `self` stays `self` — a
 * sandbox must not gain the spawned sessions a non-sandboxed agent with `self` could not see.
 */
export function effectiveVisibility(configured: SessionVisibility, sandboxed: boolean): SessionVisibility {
  if (!sandboxed) return configured;
  return VISIBILITY_ORDER.indexOf(configured) < VISIBILITY_ORDER.indexOf('tree') ? configured : 'tree';
}

/**
 * Whether the session `requesterKey` runs sandboxed: its agent's `sandbox.mode` is `all`, or `non-main` and the
 * session is not the agent's main one (OpenClaw's rule: direct, group, spawned and thread sessions are sandboxed).
 */
export function isSandboxedRequester(config: SessionAccessConfig | Pick<RuntimeSnapshot, 'config'>, requesterKey: string): boolean {
  const requester = parseSessionKey(requesterKey);
  return requester !== null && sandboxed(accessConfig(config), requester);
}

/** The access check. Checks run in layer order, so a denial names the first layer that failed. */
export async function checkSessionAccess(input: SessionAccessInput): Promise<SessionAccessDecision> {
  const cfg = accessConfig(input.config);
  // The key module's parser gives the owner (the same answer as agentIdFromSessionKey) and the canonical
  // lowercase key, so `Agent:Support:Main` and `agent:support:main` are one session here as in the store.
  const requester = parseSessionKey(input.requesterKey);
  const target = parseSessionKey(input.targetKey);
  const isSandboxed = requester !== null && sandboxed(cfg, requester);
  const configured = cfg.tools.sessions.visibility;
  const visibility = effectiveVisibility(configured, isSandboxed);

  // A key without a recognizable owner cannot be placed on either side of any rule: fail closed.
  if (requester === null || target === null) {
    const bad = requester === null ? input.requesterKey : input.targetKey;
    return forbidVisibility(visibility, `malformed session key ${JSON.stringify(bad)}`);
  }
  const { key: r, agentId: a } = requester;
  const { key: t, agentId: b } = target;

  if (a !== b) return crossAgent(cfg, a, b, visibility, isSandboxed);

  if (t === r) return allow('same session: a session always sees itself');
  const prefix = isSandboxed && configured !== visibility ? SANDBOX_RULE : `visibility=${visibility}`;
  switch (visibility) {
    case 'self':
      return forbidVisibility(visibility, `${prefix}: only the requester's own session is visible`);
    case 'tree':
      return (await input.isSpawnedBy(t, r))
        ? allow(`${prefix}: target spawned by requester`)
        : forbidVisibility(visibility, `${prefix}: target not spawned by requester`);
    case 'agent':
    case 'all':
      return allow(`${prefix}: any session of the same agent`);
    default:
      // Unreachable with a validated config; a value the schema did not know must not open anything.
      return forbidVisibility(visibility, `unknown visibility ${JSON.stringify(visibility)}`);
  }
}

/**
 * sessions_send by label: may the requester look a label up in `targetAgentId`? Runs before the lookup, so a
 * requester that may not reach that agent cannot even probe which labels exist there: it gets the same answer
 * whether the label exists or not. Inside its own agent a lookup is always permitted (the resolved key still goes
 * through `checkSessionAccess`); in another agent the cross-agent layers apply as to any session of that agent,
 * with the sandbox's own message. See docs/sessions.md#sessions_send-step-by-step.
 */
export function checkLabelLookup(input: {
  requesterKey: string;
  targetAgentId: string;
  config: SessionAccessConfig | Pick<RuntimeSnapshot, 'config'>;
}): SessionAccessDecision {
  const cfg = accessConfig(input.config);
  const requester = parseSessionKey(input.requesterKey);
  const a = requester?.agentId;
  if (requester === null || a === undefined) {
    return forbidVisibility(cfg.tools.sessions.visibility, `malformed session key ${JSON.stringify(input.requesterKey)}`);
  }
  // Agent ids are canonical lowercase; a differently-cased id still names another agent only if it differs.
  const b = input.targetAgentId.trim().toLowerCase();
  if (a === b) return allow('label lookup in its own agent');
  if (sandboxed(cfg, requester)) {
    return {
      allowed: false,
      layer: 'visibility',
      rule: 'sandbox limits label lookup to its own agent',
      message: SANDBOX_LABEL_LOOKUP_MESSAGE,
    };
  }
  return crossAgent(cfg, a, b, cfg.tools.sessions.visibility, false);
}

function crossAgent(
  cfg: SessionAccessConfig,
  a: string,
  b: string,
  visibility: SessionVisibility,
  isSandboxed: boolean,
): SessionAccessDecision {
  // A sandbox never reaches another agent, whatever visibility and tools.agentToAgent say.
  if (isSandboxed) return forbidVisibility(visibility, `${SANDBOX_RULE}: cross-agent access is forbidden`);
  if (visibility !== 'all') {
    return forbidVisibility(visibility, `visibility=${visibility}: cross-agent sessions need visibility=all`);
  }
  const verdict = createAgentToAgentPolicy(cfg.tools.agentToAgent).explain(a, b);
  if (verdict.allowed) return allow(`visibility=all; ${verdict.rule}`);
  return {
    allowed: false,
    layer: 'policy',
    rule: verdict.rule,
    message: verdict.failed === 'disabled' ? AGENT_TO_AGENT_DISABLED_MESSAGE : AGENT_TO_AGENT_DENIED_MESSAGE,
  };
}

function accessConfig(config: SessionAccessConfig | Pick<RuntimeSnapshot, 'config'>): SessionAccessConfig {
  return 'config' in config ? config.config : config;
}

function sandboxed(cfg: SessionAccessConfig, session: ParsedSessionKey): boolean {
  const mode = cfg.agents.find((agent) => agent.id === session.agentId)?.sandbox.mode;
  return isSandboxedSession(mode, session, cfg.session?.mainKey ?? 'main');
}

function allow(rule: string): SessionAccessDecision {
  return { allowed: true, layer: null, rule };
}

function forbidVisibility(visibility: SessionVisibility, rule: string): SessionAccessDecision {
  return { allowed: false, layer: 'visibility', rule, message: visibilityForbiddenMessage(visibility) };
}
