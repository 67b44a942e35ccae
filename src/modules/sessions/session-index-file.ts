/**
 * Reading `sessions.json` back. The file is ours, but it sits in a user-editable state dir (and may come
 * from an OpenClaw install), so each entry is checked before it is trusted: a bad entry is dropped with a
 * reason instead of failing the whole agent, and `sessionId` must be a safe file stem because it becomes
 * a path.
 */
import { DELIVERY_CONTEXT_FIELDS } from './session-entry-rules';
import { canonicalSessionKey, checkLabel, isSafeSessionId } from './session-input';
import type { DeliveryContext, SessionEntry } from './session-store.port';
import { isRecord } from '../../common/is-record';

export interface ParsedIndex {
  entries: SessionEntry[];
  /** Entries that were dropped or repaired, one line each. */
  problems: string[];
  /** Set when the file as a whole is unusable (not JSON, not an object). */
  corrupt?: string;
}

export function parseIndexFile(text: string, agentId: string): ParsedIndex {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { entries: [], problems: [], corrupt: `not valid JSON: ${(e as Error).message}` };
  }
  if (!isRecord(doc)) return { entries: [], problems: [], corrupt: 'not a JSON object' };
  const entries: SessionEntry[] = [];
  const problems: string[] = [];
  const labels = new Set<string>();
  for (const [key, value] of Object.entries(doc)) {
    const result = readEntry(key, value, agentId);
    if (typeof result === 'string') {
      problems.push(`dropped entry ${JSON.stringify(key)}: ${result}`);
      continue;
    }
    if (result.label !== undefined) {
      // Uniqueness is an invariant the rest of the store relies on; the first holder keeps the label.
      if (labels.has(result.label)) {
        problems.push(`entry ${JSON.stringify(key)}: label ${JSON.stringify(result.label)} already held by an earlier entry; cleared`);
        delete result.label;
      } else labels.add(result.label);
    }
    entries.push(result);
  }
  return { entries, problems };
}

/** The entry, or why it cannot be used. */
function readEntry(rawKey: string, value: unknown, agentId: string): SessionEntry | string {
  if (!isRecord(value)) return 'not an object';
  let key: string;
  try {
    const canonical = canonicalSessionKey(rawKey);
    if (canonical.agentId !== agentId) return `belongs to agent ${canonical.agentId}, not ${agentId}`;
    key = canonical.key;
  } catch (e) {
    return (e as Error).message;
  }
  if (!isSafeSessionId(value.sessionId)) return 'sessionId is missing or not a safe file name';
  const updatedAt = timestamp(value.updatedAt) ?? timestamp(value.createdAt);
  if (!updatedAt) return 'no valid createdAt/updatedAt';
  const entry: SessionEntry = {
    sessionKey: key,
    sessionId: value.sessionId,
    agentId,
    createdAt: timestamp(value.createdAt) ?? updatedAt,
    updatedAt,
  };
  if (value.label !== undefined) {
    try {
      entry.label = checkLabel(value.label);
    } catch {
      /* an invalid label is dropped; the session itself is fine */
    }
  }
  if (typeof value.spawnedBy === 'string') {
    try {
      entry.spawnedBy = canonicalSessionKey(value.spawnedBy).key;
    } catch {
      /* lineage is lost for this entry only */
    }
  }
  const dc = deliveryContext(value.deliveryContext);
  if (dc) entry.deliveryContext = dc;
  return entry;
}

/** ISO strings; epoch milliseconds (OpenClaw's format) are converted. */
function timestamp(v: unknown): string | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function deliveryContext(v: unknown): DeliveryContext | undefined {
  if (!isRecord(v)) return undefined;
  const out: DeliveryContext = {};
  for (const field of DELIVERY_CONTEXT_FIELDS) {
    if (typeof v[field] === 'string') out[field] = v[field];
  }
  return Object.keys(out).length ? out : undefined;
}
