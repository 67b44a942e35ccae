/**
 * The checks of a listing's filter, the same for every session store: limit, agent id, activeMinutes, cursor type
 * and label, with the 400 naming the bad field. What comes out is what a store's query needs.
 */
import { badRequest } from '../../common/errors/app-error';
import { checkAgentId, checkLimit, labelOrUndefined } from './session-input';
import type { SessionPageFilter } from './session-store.port';

export const DEFAULT_LIST_LIMIT = 50;

export interface CheckedPageFilter {
  /** One agent, or (undefined) any of `agentIds`. */
  agentId?: string;
  agentIds: readonly string[];
  label?: string;
  /** Epoch ms: only sessions updated at or after. */
  since?: number;
  cursor?: string;
  limit: number;
}

/**
 * Undefined when the filter can match nothing (an impossible label: the label filter is a lookup, not a write).
 * `configuredAgents` is asked only when no agent id is given.
 */
export function checkPageFilter(
  filter: SessionPageFilter,
  now: number,
  configuredAgents: () => readonly string[],
): CheckedPageFilter | undefined {
  const limit = checkLimit(filter.limit, DEFAULT_LIST_LIMIT) ?? DEFAULT_LIST_LIMIT;
  const agentId = filter.agentId === undefined ? undefined : checkAgentId(filter.agentId);
  const since = activeSince(filter.activeMinutes, now);
  if (filter.cursor !== undefined && typeof filter.cursor !== 'string') throw badRequest('cursor must be a string');
  const label = filter.label === undefined ? undefined : labelOrUndefined(filter.label);
  if (filter.label !== undefined && label === undefined) return undefined;
  const agentIds = agentId === undefined ? configuredAgents() : [];
  return { agentId, agentIds, label, since, cursor: filter.cursor, limit };
}

function activeSince(activeMinutes: number | undefined, now: number): number | undefined {
  if (activeMinutes === undefined) return undefined;
  if (typeof activeMinutes !== 'number' || !Number.isFinite(activeMinutes) || activeMinutes <= 0) {
    throw badRequest(`activeMinutes must be a positive number (got ${String(activeMinutes)})`);
  }
  return now - activeMinutes * 60_000;
}
