import { compileAgentPattern } from '../../common/agent-pattern';

/**
 * Layer 3: which agents may act on each other's sessions. Pure: a policy is compiled from the
 * `tools.agentToAgent` object of a snapshot and never looks at anything else.
 * The rules: docs/sessions.md#agent-to-agent-policy-layer-3.
 */

/**
 * `tools.agentToAgent` as it may arrive: the normalized config (`{enabled: boolean, allow: string[]}`) or a raw
 * document. Typed loosely on purpose — only a literal `true` enables the policy, so a hand-edited
 * `enabled: "true"` or `1` must be representable here and must deny.
 */
export interface AgentToAgentSettingsInput {
  readonly enabled?: unknown;
  readonly allow?: unknown;
}

/** Why `isAllowed` answered the way it did, for `/admin/policy/check` and audit lines. */
export interface AgentToAgentExplanation {
  allowed: boolean;
  rule: string;
  /** Only when denied: `disabled` (the switch) or `allow` (the list). */
  failed?: 'disabled' | 'allow';
}

export interface AgentToAgentPolicy {
  /** True only when the settings said exactly `enabled: true`. */
  readonly enabled: boolean;
  /** The patterns as compiled, in config order. */
  readonly patterns: readonly string[];
  /** Whether `agentId` is on the allow list (an empty list allows every id). Ignores `enabled`. */
  matches(agentId: string): boolean;
  /** The first pattern that admits `agentId`, or undefined. */
  matchingPattern(agentId: string): string | undefined;
  /** a = b → true (same-agent access is layer 2's business); disabled → false; else both must match. */
  isAllowed(requesterAgentId: string, targetAgentId: string): boolean;
  explain(requesterAgentId: string, targetAgentId: string): AgentToAgentExplanation;
}

/*
 * Keyed by the settings object: a snapshot is immutable and a reload produces new objects, so a cached policy
 * can never be stale and the old one is collected with its snapshot.
 */
const compiled = new WeakMap<object, AgentToAgentPolicy>();

/** Compiles (once per settings object) the policy of docs/sessions.md#agent-to-agent-policy-layer-3. */
export function createAgentToAgentPolicy(settings: AgentToAgentSettingsInput | undefined): AgentToAgentPolicy {
  if (!settings) return compile({});
  const cached = compiled.get(settings);
  if (cached) return cached;
  const policy = compile(settings);
  compiled.set(settings, policy);
  return policy;
}

function compile(settings: AgentToAgentSettingsInput): AgentToAgentPolicy {
  const enabled = settings.enabled === true;
  const raw = rawPatterns(settings.allow);
  // Emptiness is judged on the list as written: `allow: [""]` names something unusable and must not
  // silently turn into "everyone".
  const allowAll = raw.length === 0;
  const entries = raw.map((entry) => ({ pattern: entry, test: compileAgentPattern(entry) }));

  const matchingPattern = (agentId: string): string | undefined => {
    if (allowAll) return undefined;
    return entries.find((e) => e.test(agentId))?.pattern;
  };
  const matches = (agentId: string): boolean => allowAll || matchingPattern(agentId) !== undefined;

  const explain = (a: string, b: string): AgentToAgentExplanation => {
    if (a === b) return { allowed: true, rule: 'same agent: tools.agentToAgent does not apply' };
    if (!enabled) return { allowed: false, failed: 'disabled', rule: 'tools.agentToAgent.enabled is not true' };
    if (allowAll) return { allowed: true, rule: 'tools.agentToAgent.allow is empty: every agent is allowed' };
    const pa = matchingPattern(a);
    const pb = matchingPattern(b);
    if (pa !== undefined && pb !== undefined) {
      const rule =
        pa === pb
          ? `tools.agentToAgent.allow: ${JSON.stringify(pa)} matched both`
          : `tools.agentToAgent.allow: ${JSON.stringify(pa)} matched ${a}, ${JSON.stringify(pb)} matched ${b}`;
      return { allowed: true, rule };
    }
    const missing = [pa === undefined ? a : undefined, pb === undefined ? b : undefined].filter((x) => x !== undefined);
    return {
      allowed: false,
      failed: 'allow',
      rule: `tools.agentToAgent.allow: no pattern matches ${missing.map((id) => JSON.stringify(id)).join(' or ')}`,
    };
  };

  return Object.freeze({
    enabled,
    patterns: Object.freeze(entries.map((e) => e.pattern)),
    matches,
    matchingPattern,
    isAllowed: (a: string, b: string) => a === b || (enabled && matches(a) && matches(b)),
    explain,
  });
}

/**
 * The allow list as strings. Entries are trimmed (ids cannot contain spaces); anything that is not a string
 * — or a non-array `allow` — becomes an empty pattern, which matches nothing: a malformed list fails closed.
 */
function rawPatterns(allow: unknown): string[] {
  if (allow === undefined || allow === null) return [];
  if (!Array.isArray(allow)) return [''];
  return allow.map((p: unknown) => (typeof p === 'string' ? p.trim() : ''));
}
