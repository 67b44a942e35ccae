import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { randomUUID } from 'node:crypto';
import { isCanonicalAgentId } from '../../common/agent-id';
import type { DmScope } from '../config';
import { builtSessionKey } from './canonical-keys';

/**
 * The one place that builds and parses session keys. Every key is `agent:<agentId>:<rest>`,
 * lowercased (docs/sessions.md#session-keys):
 *
 *   main                      agent:<id>:<mainKey>
 *   per-peer                  agent:<id>:direct:<peer>
 *   per-channel-peer          agent:<id>:<channel>:direct:<peer>
 *   per-account-channel-peer  agent:<id>:<channel>:<accountId>:direct:<peer>
 *   group / channel           agent:<id>:<channel>:group|channel:<peerId>
 *   sub-session               agent:<id>:subagent:<uuid>
 *
 * and a thread (of a direct or group conversation) appends `:thread:<threadId>`.
 *
 * Parsing rules, chosen so that peer and thread ids may contain `:` (Matrix `@u:server`, Slack `T1:U2`):
 * - the agent id never contains `:` (it is `[a-z0-9][a-z0-9_-]*`), so the owner is always segment 2;
 * - channel and account ids must not contain `:` (the builders refuse them), so the conversation marker
 *   (`direct`, `group`, `channel`) sits at a known segment and everything after it is the peer;
 * - the thread suffix is split at the LAST `:thread:`, so a peer id may contain `:thread:` when a thread id
 *   follows; a thread id itself must not contain `:thread:`. The format has no escaping, so a key whose
 *   peer id contains `:thread:` without a thread reads back as a thread key — an accepted, documented edge.
 * - Keys are canonical in lowercase; parsing lowercases its input so a hand-typed `Agent:Main:main` still
 *   resolves to its owner. Store `parsed.key`, not the raw input.
 * - The format itself cannot tell a channel literally named `direct` or `subagent`, or an account named
 *   `direct|group|channel`, from the markers; such keys parse as the marker form. The owner (`agentId`) is
 *   unaffected, which is what the guards rely on.
 */

export const SESSION_KEY_PREFIX = 'agent';
const THREAD_MARKER = ':thread:';
const SUBAGENT_MARKER = 'subagent';

export type GroupKind = 'group' | 'channel';

export interface DirectSessionKeyInput {
  agentId: string;
  dmScope: DmScope;
  mainKey: string;
  channel: string;
  accountId: string;
  peerId: string;
  threadId?: string;
}

export interface GroupSessionKeyInput {
  agentId: string;
  channel: string;
  kind: GroupKind;
  peerId: string;
  threadId?: string;
}

interface ParsedBase {
  /** The canonical (lowercased) key. */
  key: string;
  agentId: string;
  threadId?: string;
}

export type ParsedSessionKey =
  | (ParsedBase & { kind: 'main'; mainKey: string })
  | (ParsedBase & { kind: 'direct'; dmScope: Exclude<DmScope, 'main'>; channel?: string; accountId?: string; peerId: string })
  | (ParsedBase & { kind: GroupKind; channel: string; peerId: string })
  | (ParsedBase & { kind: 'subagent'; subagentId: string });

/** Thrown for keys that are not `agent:<agentId>:<rest>`; the message quotes the key so logs show it. */
export class InvalidSessionKeyError extends AppError {
  constructor(key: string, reason: string) {
    super(ErrorCode.BadRequest, `invalid session key ${JSON.stringify(key)}: ${reason} (expected "agent:<agentId>:<rest>")`);
    this.name = 'InvalidSessionKeyError';
  }
}

/** `agent:<id>:<mainKey>` — the agent's main conversation (dmScope `main` collapses all DMs into it). */
export function mainSessionKey(agentId: string, mainKey: string): string {
  return join(agentSegment(agentId), [requireSegment('mainKey', mainKey, true)]);
}

/** The key of a direct conversation under the configured dmScope; a thread appends `:thread:<id>`. */
export function directSessionKey(input: DirectSessionKeyInput): string {
  const agent = agentSegment(input.agentId);
  const peer = requireSegment('peerId', input.peerId, true);
  let parts: string[];
  switch (input.dmScope) {
    case 'main':
      parts = [requireSegment('mainKey', input.mainKey, true)];
      break;
    case 'per-peer':
      parts = ['direct', peer];
      break;
    case 'per-channel-peer':
      parts = [requireSegment('channel', input.channel, false), 'direct', peer];
      break;
    case 'per-account-channel-peer':
      parts = [requireSegment('channel', input.channel, false), requireSegment('accountId', input.accountId, false), 'direct', peer];
      break;
    default:
      throw new Error(`unknown dmScope ${JSON.stringify(input.dmScope)}`);
  }
  const key = withThread(join(agent, parts), input.threadId);
  // A conversation key parses back to itself and its agent, unless a thread marker (in an id, or a thread) decides
  // its shape: those, and main keys, are parsed where they are used, like any caller's key.
  return input.dmScope !== 'main' && !key.includes(THREAD_MARKER) ? builtSessionKey(key, agent) : key;
}

/** `agent:<id>:<channel>:group|channel:<peerId>[:thread:<threadId>]`. */
export function groupSessionKey(input: GroupSessionKeyInput): string {
  if (input.kind !== 'group' && input.kind !== 'channel') {
    throw new Error(`group session kind must be "group" or "channel", got ${JSON.stringify(input.kind)}`);
  }
  const parts = [requireSegment('channel', input.channel, false), input.kind, requireSegment('peerId', input.peerId, true)];
  return withThread(join(agentSegment(input.agentId), parts), input.threadId);
}

/** `agent:<id>:subagent:<uuid>` for a spawned sub-session; a fresh UUID unless one is given. */
export function subagentSessionKey(agentId: string, uuid: string = randomUUID()): string {
  return join(agentSegment(agentId), [SUBAGENT_MARKER, requireSegment('uuid', uuid, false)]);
}

/** The structured form of a key, or null when it is not a valid session key. */
export function parseSessionKey(raw: string): ParsedSessionKey | null {
  return typeof raw === 'string' ? parseOrReason(raw).parsed : null;
}

/** True when `raw` parses (case-insensitively) as a session key. */
export function isValidSessionKey(raw: string): boolean {
  return parseSessionKey(raw) !== null;
}

/** True for keys of a thread inside a direct or group conversation. */
export function isThreadSessionKey(raw: string): boolean {
  return parseSessionKey(raw)?.threadId !== undefined;
}

/**
 * The agent that owns a session — the only sanctioned way to get it (guards compare owners through this).
 * Throws InvalidSessionKeyError for a malformed key rather than guessing an owner.
 */
export function agentIdFromSessionKey(raw: string): string {
  if (typeof raw !== 'string') throw new InvalidSessionKeyError(String(raw), 'not a string');
  const { parsed, reason } = parseOrReason(raw);
  if (!parsed) throw new InvalidSessionKeyError(raw, reason);
  return parsed.agentId;
}

function parseOrReason(raw: string): { parsed: ParsedSessionKey | null; reason: string } {
  const key = raw.toLowerCase();
  const fail = (reason: string) => ({ parsed: null, reason });
  if (!key.startsWith(`${SESSION_KEY_PREFIX}:`)) return fail('missing the "agent:" prefix');
  const afterPrefix = key.slice(SESSION_KEY_PREFIX.length + 1);
  const colon = afterPrefix.indexOf(':');
  if (colon < 0) return fail('nothing after the agent id');
  const agentId = afterPrefix.slice(0, colon);
  if (!isCanonicalAgentId(agentId)) return fail(`"${agentId}" is not a valid agent id`);
  const rest = afterPrefix.slice(colon + 1);
  if (!rest) return fail('empty key after the agent id');

  if (rest.startsWith(`${SUBAGENT_MARKER}:`)) {
    const subagentId = rest.slice(SUBAGENT_MARKER.length + 1);
    if (!subagentId) return fail('empty subagent id');
    return { parsed: { kind: 'subagent', key, agentId, subagentId }, reason: '' };
  }

  const { body, threadId } = splitThread(rest);
  if (threadId === '') return fail('empty thread id');
  const base = { key, agentId, ...(threadId !== undefined ? { threadId } : {}) };
  const bodySegments = body.split(':');
  const tail = (n: number) => bodySegments.slice(n).join(':');

  // Conversation marker position decides the form: per-peer (0), per-channel-peer/group (1), per-account (2).
  if (bodySegments[0] === 'direct' && bodySegments.length > 1) {
    const peerId = tail(1);
    return peerId ? { parsed: { ...base, kind: 'direct', dmScope: 'per-peer', peerId }, reason: '' } : fail('empty peer id');
  }
  if (bodySegments.length > 2 && bodySegments[0] !== '') {
    const marker = bodySegments[1];
    if (marker === 'direct' || marker === 'group' || marker === 'channel') {
      const peerId = tail(2);
      if (!peerId) return fail('empty peer id');
      const channel = bodySegments[0];
      return marker === 'direct'
        ? { parsed: { ...base, kind: 'direct', dmScope: 'per-channel-peer', channel, peerId }, reason: '' }
        : { parsed: { ...base, kind: marker, channel, peerId }, reason: '' };
    }
  }
  if (bodySegments.length > 3 && bodySegments[0] !== '' && bodySegments[1] !== '' && bodySegments[2] === 'direct') {
    const peerId = tail(3);
    if (!peerId) return fail('empty peer id');
    const [channel, accountId] = bodySegments;
    return { parsed: { ...base, kind: 'direct', dmScope: 'per-account-channel-peer', channel, accountId, peerId }, reason: '' };
  }
  // A main key may contain `:` but not an empty segment at either end (`agent:x::y`, `agent:x:y:`).
  if (!body || body.startsWith(':') || body.endsWith(':')) return fail('empty segment');
  return { parsed: { ...base, kind: 'main', mainKey: body }, reason: '' };
}

function splitThread(rest: string): { body: string; threadId?: string } {
  const at = rest.lastIndexOf(THREAD_MARKER);
  if (at <= 0) return { body: rest };
  return { body: rest.slice(0, at), threadId: rest.slice(at + THREAD_MARKER.length) };
}

function withThread(key: string, threadId: string | undefined): string {
  if (threadId === undefined) return key;
  const id = requireSegment('threadId', threadId, true);
  if (id.includes(THREAD_MARKER)) throw new Error(`threadId must not contain "${THREAD_MARKER}": ${JSON.stringify(threadId)}`);
  return `${key}${THREAD_MARKER}${id}`;
}

function join(agent: string, parts: string[]): string {
  return `${SESSION_KEY_PREFIX}:${agent}:${parts.join(':')}`;
}

function agentSegment(agentId: string): string {
  const id = String(agentId ?? '').toLowerCase();
  if (!isCanonicalAgentId(id)) throw new Error(`cannot build a session key: invalid agent id ${JSON.stringify(agentId)}`);
  return id;
}

/**
 * Lowercases one segment. Ids that sit before the conversation marker (channel, account, uuid) must not
 * contain `:` or parsing could not find the marker; peer/thread ids and the main key may.
 */
function requireSegment(name: string, value: string, colonAllowed: boolean): string {
  if (typeof value !== 'string' || value === '') throw new Error(`cannot build a session key: ${name} is empty`);
  if (!colonAllowed && value.includes(':')) {
    throw new Error(`cannot build a session key: ${name} must not contain ":" (got ${JSON.stringify(value)})`);
  }
  return value.toLowerCase();
}
