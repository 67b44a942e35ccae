import { canonicalSessionKey } from './session-input';
import type { NewTranscriptLine, SessionCreateOptions, TranscriptLine } from './session-store.port';
import { checkSessionInit, type SessionInit } from './session-upsert';
import { buildLine } from './transcript-jsonl';

/** An append checked and built before any store touches it: the same for every session store. */
export interface AppendInput {
  key: string;
  agentId: string;
  /** The creation options, checked; undefined when the caller gave none. */
  wanted?: SessionInit;
  line: TranscriptLine;
  json: string;
  at: number;
}

/** Checks an append's key, creation options and line; throws the 400 that names what is wrong. */
export function appendInput(
  sessionKey: string,
  line: NewTranscriptLine,
  create: SessionCreateOptions | undefined,
  now: () => Date,
): AppendInput {
  const { key, agentId } = canonicalSessionKey(sessionKey);
  const wanted = create === undefined ? undefined : checkSessionInit(create, key);
  const full = buildLine(line, now());
  return { key, agentId, wanted, line: full, json: JSON.stringify(full), at: now().getTime() };
}

/**
 * Whether `ancestorKey` is among the sessions `targetKey` was spawned from, walking up `parentOf`. Lineage written by
 * an older layout can contain a cycle: a session seen twice ends the walk instead of looping forever.
 */
export async function isSpawnedFrom(
  targetKey: string,
  ancestorKey: string,
  parentOf: (key: string) => string | undefined | Promise<string | undefined>,
): Promise<boolean> {
  const target = canonicalSessionKey(targetKey, 'target session key').key;
  const ancestor = canonicalSessionKey(ancestorKey, 'ancestor session key').key;
  const seen = new Set<string>([target]);
  let parent = await parentOf(target);
  while (parent !== undefined) {
    if (parent === ancestor) return true;
    if (seen.has(parent)) return false;
    seen.add(parent);
    parent = await parentOf(parent);
  }
  return false;
}
