/**
 * Small rules about session entries shared by the store's methods: label conflicts, which init options
 * change an existing entry, list order, and defensive copies (the store's in-memory entries never leave it).
 */
import { badRequest, AppError, notFound } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { DeliveryContext, SessionEntry } from './session-store.port';

/** What the label check needs of an agent's index (AgentSessionIndex has it). */
export interface LabelHolders {
  readonly agentId: string;
  labelHolder(label: string): string | undefined;
}

export function assertLabelFree(index: LabelHolders, label: string, key: string): void {
  const holder = index.labelHolder(label);
  if (holder !== undefined && holder !== key) {
    throw new AppError(
      ErrorCode.Conflict,
      `label ${JSON.stringify(label)} is already used by session ${holder} (labels are unique per agent)`,
      [{ label, sessionKey: holder, agentId: index.agentId }],
    );
  }
}

export function sessionNotFound(key: string): AppError {
  return notFound(`session ${key} not found`);
}

/** True when applying label/deliveryContext would change the stored entry. */
export function changes(entry: SessionEntry, label: string | undefined, dc: DeliveryContext | undefined): boolean {
  if (label !== undefined && label !== entry.label) return true;
  return dc !== undefined && JSON.stringify(dc) !== JSON.stringify(entry.deliveryContext ?? {});
}

/** The fields of a DeliveryContext, in the fixed order entries store them. */
export const DELIVERY_CONTEXT_FIELDS = ['channel', 'accountId', 'to', 'threadId'] as const;

/** Only the documented string fields, in a fixed order (so equality by JSON is meaningful); none → undefined. */
export function cleanDeliveryContext(dc: DeliveryContext): DeliveryContext | undefined {
  const out: DeliveryContext = {};
  for (const field of DELIVERY_CONTEXT_FIELDS) {
    const value: unknown = dc?.[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw badRequest(`deliveryContext.${field} must be a string`);
    out[field] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

export function mostRecentFirst(a: SessionEntry, b: SessionEntry): number {
  return (
    Date.parse(b.updatedAt) - Date.parse(a.updatedAt) ||
    Date.parse(b.createdAt) - Date.parse(a.createdAt) ||
    (a.sessionKey < b.sessionKey ? -1 : a.sessionKey > b.sessionKey ? 1 : 0)
  );
}

export function copyEntry(e: SessionEntry): SessionEntry {
  return e.deliveryContext ? { ...e, deliveryContext: { ...e.deliveryContext } } : { ...e };
}
