/**
 * Creating a session or bringing an existing one in line with what its creator asks for: the one rule behind
 * getOrCreate and an append that creates its session (the first line of a run), so both behave the same.
 */
import { badRequest } from '../../common/errors/app-error';
import { createSession, entryFromRow, labelHolders, SessionConnection, SessionRow, StoredSession } from './session-database';
import { assertLabelFree, changes, cleanDeliveryContext } from './session-entry-rules';
import { canonicalSessionKey, checkLabel } from './session-input';
import type { DeliveryContext, SessionCreateOptions } from './session-store.port';

/** Checked creation options: a trimmed label, a canonical parent key, a clean delivery context. */
export interface SessionInit {
  label?: string;
  spawnedBy?: string;
  deliveryContext?: DeliveryContext;
}

export interface UpsertedSession extends StoredSession {
  created: boolean;
}

/** Validates what a caller asks a (possibly new) session `key` to be; throws 400 naming the bad field. */
export function checkSessionInit(init: SessionCreateOptions, key: string): SessionInit {
  const label = init.label === undefined ? undefined : checkLabel(init.label);
  const spawnedBy = init.spawnedBy === undefined ? undefined : canonicalSessionKey(init.spawnedBy, 'spawnedBy').key;
  if (spawnedBy === key) throw badRequest('a session cannot be spawned by itself');
  const deliveryContext = init.deliveryContext === undefined ? undefined : cleanDeliveryContext(init.deliveryContext);
  return { label, spawnedBy, deliveryContext };
}

/** True when `init` would change the committed session (so a write has to check its row). */
export function initChanges(session: StoredSession, init: SessionInit): boolean {
  return changes(session.entry, init.label, init.deliveryContext);
}

/**
 * Inside a write: creates the session, or applies `init`'s label and delivery context to the existing one
 * (`spawnedBy` is fixed at creation). Checked and applied inside the commit, where writes run one after
 * another, so two callers can never both create the session or both take a label (409).
 */
export function upsertSession(c: SessionConnection, key: string, agentId: string, at: number, init: SessionInit): UpsertedSession {
  const row = c.statements.byKey.get(key) as SessionRow | undefined;
  if (!row) {
    if (init.label !== undefined) assertLabelFree(labelHolders(c, agentId), init.label, key);
    return { created: true, ...createSession(c, key, agentId, at, init) };
  }
  const entry = entryFromRow(row);
  if (init.label !== undefined && init.label !== entry.label) {
    assertLabelFree(labelHolders(c, agentId), init.label, key);
    c.statements.setLabel.run(init.label, row.seq);
    entry.label = init.label;
  }
  if (init.deliveryContext !== undefined && changes(entry, undefined, init.deliveryContext)) {
    c.statements.setDeliveryContext.run(JSON.stringify(init.deliveryContext), row.seq);
    entry.deliveryContext = init.deliveryContext;
  }
  return { created: false, seq: row.seq, entry };
}
