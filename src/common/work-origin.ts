import { isRecord } from './is-record';

/**
 * Where a piece of work started on this gateway (docs/usage.md#budgets-follow-the-work): the first run — the one a
 * person, a peer, a key or the admin API asked for — and whom it was for. Every run that run's tools start (a
 * `sessions_send`, a `sessions_spawn`, a child of a child) carries the same origin, and every model call of them is
 * recorded with it, so the budgets of the origin count the whole tree.
 */
export interface WorkOrigin {
  /** The first run of the work. */
  runId: string;
  agentId: string;
  sessionKey: string;
  /** The channel that run's message came in on (`a2a`, `openai`, `http`, …), `internal` for the admin API's runs. */
  channel: string;
  /** The A2A peer, the OpenAI/MCP key name or the channel account; absent when the channel names none. */
  caller?: string;
  /** What a trusted A2A peer allowed the work to spend (channels.a2a.peers.<name>.trustBudget). */
  carried?: CarriedBudget;
}

/** A limit a calling gateway handed down with its task: the work may spend at most this, however it fans out. */
export interface CarriedBudget {
  /** The caller's name of the budget the limit comes from. */
  budget: string;
  /** The peer that sent it. */
  peer: string;
  tokens?: number;
  cost?: number;
}

/** The one message metadata key an outbound A2A call carries its origin and remaining budget in. */
export const BUDGET_METADATA_KEY = 'clawgate/budget';

/** The value of BUDGET_METADATA_KEY: whose work it is on the sending gateway, and what it may still spend. */
export interface BudgetMetadata {
  origin: { agent: string; session: string; channel: string; caller?: string };
  remaining: { tokens?: number; cost?: number };
  budget: string;
}

/**
 * A message's budget metadata, read strictly: undefined when the key is absent or anything in it is not as
 * BudgetMetadata has it (a limit that is not a finite number ≥ 0, no limit at all, no budget name). A peer
 * cannot raise a limit by sending something odd: what cannot be read is not applied.
 */
export function readBudgetMetadata(metadata: unknown): BudgetMetadata | undefined {
  if (!isRecord(metadata)) return undefined;
  const value = metadata[BUDGET_METADATA_KEY];
  if (!isRecord(value) || !isRecord(value.remaining) || typeof value.budget !== 'string' || !value.budget) return undefined;
  const limit = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined);
  const tokens = limit(value.remaining.tokens);
  const cost = limit(value.remaining.cost);
  if ((value.remaining.tokens !== undefined && tokens === undefined) || (value.remaining.cost !== undefined && cost === undefined)) {
    return undefined;
  }
  if (tokens === undefined && cost === undefined) return undefined;
  const o = isRecord(value.origin) ? value.origin : {};
  const text = (s: unknown) => (typeof s === 'string' ? s.slice(0, 200) : '');
  return {
    origin: {
      agent: text(o.agent),
      session: text(o.session),
      channel: text(o.channel),
      ...(typeof o.caller === 'string' ? { caller: text(o.caller) } : {}),
    },
    remaining: { ...(tokens !== undefined ? { tokens } : {}), ...(cost !== undefined ? { cost } : {}) },
    budget: value.budget.slice(0, 200),
  };
}
