import { normalizeAgentId } from '../../common/agent-id';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { Json5Edit, JsonPath, SandboxMode } from '../config';

/**
 * Edit plans for agents and bindings in openclaw.json, shared by the admin API and the CLI. Each takes the
 * root document as written (both `agents.list` and `agents.entries` forms) and returns minimal edits, so
 * the user's comments and layout survive. Validation of the result (duplicate ids, bad models...) is the
 * writer's job: it runs the whole pipeline before writing.
 */

export interface AgentFields {
  name?: string | null;
  workspace?: string | null;
  agentDir?: string | null;
  model?: string | null;
  default?: boolean | null;
  identity?: { name?: string | null; emoji?: string | null; avatar?: string | null } | null;
  sandbox?: { mode?: SandboxMode; scope?: 'session' | 'agent' | 'shared' } | null;
  tools?: { allow?: string[]; deny?: string[] } | null;
}

export interface BindingMatchInput {
  channel: string;
  accountId?: string;
  peer?: { kind: 'direct' | 'group' | 'channel'; id: string };
  guildId?: string;
  teamId?: string;
}

type Doc = Record<string, unknown>;

/** Thrown by a plan when the agent is not in the root file (it may live in an included file). */
export class AgentNotInFileError extends AppError {
  constructor(public readonly agentId: string) {
    super(ErrorCode.NotFound, `agent "${agentId}" is not defined in openclaw.json`);
  }
}

export function planAddAgent(id: string, fields: AgentFields): (root: Doc) => Json5Edit[] {
  return (root) => {
    const agentId = normalizeAgentId(id);
    const entry = compact({ ...fields });
    const agents = asObject(root.agents);
    if (!agents) return [{ op: 'set', path: ['agents'], value: { list: [{ id: agentId, ...entry }] } }];
    if (asObject(agents.entries)) return [{ op: 'set', path: ['agents', 'entries', agentId], value: entry }];
    const list = Array.isArray(agents.list) ? agents.list : undefined;
    if (!list) return [{ op: 'set', path: ['agents', 'list'], value: [{ id: agentId, ...entry }] }];
    return [{ op: 'set', path: ['agents', 'list', list.length], value: { id: agentId, ...entry } }];
  };
}

/** Sets each given field; `null` removes it. Nested objects (identity, sandbox, tools) are replaced whole. */
export function planUpdateAgent(id: string, fields: AgentFields): (root: Doc) => Json5Edit[] {
  return (root) => {
    const { path, entry } = locateAgent(root, id);
    return fieldEdits(path, entry, fields);
  };
}

/** Sets identity fields one by one so other identity fields (and their comments) stay. */
export function planSetIdentity(id: string, identity: NonNullable<AgentFields['identity']>): (root: Doc) => Json5Edit[] {
  return (root) => {
    const { path, entry } = locateAgent(root, id);
    const current = asObject(entry.identity);
    if (!current) return [{ op: 'set', path: [...path, 'identity'], value: compact({ ...identity }) }];
    return fieldEdits([...path, 'identity'], current, identity);
  };
}

/** Removes the agent and every binding that routes to it (a dangling binding would be invalid). */
export function planDeleteAgent(id: string): (root: Doc) => Json5Edit[] {
  return (root) => {
    const agentId = normalizeAgentId(id);
    const { path } = locateAgent(root, agentId);
    const bindings = Array.isArray(root.bindings) ? root.bindings : [];
    const bindingEdits: Json5Edit[] = bindings
      .map((b, i) => ({ b: asObject(b), i }))
      .filter(({ b }) => b && normalizeAgentId(textOf(b.agentId)) === agentId)
      .map(({ i }) => i)
      .reverse() // remove from the end so earlier indexes stay valid
      .map((i) => ({ op: 'remove', path: ['bindings', i] }));
    return [...bindingEdits, { op: 'remove', path }];
  };
}

export function planAddBinding(id: string, match: BindingMatchInput): (root: Doc) => Json5Edit[] {
  return (root) => {
    const binding = { agentId: normalizeAgentId(id), match: compact({ ...match }) };
    if (!Array.isArray(root.bindings)) return [{ op: 'set', path: ['bindings'], value: [binding] }];
    return [{ op: 'set', path: ['bindings', root.bindings.length], value: binding }];
  };
}

export function planRemoveBinding(index: number): (root: Doc) => Json5Edit[] {
  return (root) => {
    const bindings = Array.isArray(root.bindings) ? root.bindings : [];
    if (!Number.isInteger(index) || index < 0 || index >= bindings.length) {
      throw new AppError(ErrorCode.NotFound, `no binding at index ${index} in openclaw.json (it has ${bindings.length})`);
    }
    return [{ op: 'remove', path: ['bindings', index] }];
  };
}

/**
 * The inverse of planAddBinding: removes the agent's bindings whose match is exactly `match` (the same
 * fields, `account` read as its alias accountId). Identical duplicates all go, so one unbind undoes any
 * number of repeated binds.
 */
export function planUnbind(id: string, match: BindingMatchInput): (root: Doc) => Json5Edit[] {
  return (root) => {
    const agentId = normalizeAgentId(id);
    const wanted = matchKey(match);
    const bindings = Array.isArray(root.bindings) ? root.bindings : [];
    const own = bindings.map((b, i) => ({ b: asObject(b), i })).filter(({ b }) => b && normalizeAgentId(textOf(b.agentId)) === agentId);
    const hits = own.filter(({ b }) => matchKey(asObject(b?.match) ?? {}) === wanted).map(({ i }) => i);
    if (hits.length) return hits.reverse().map((i) => ({ op: 'remove', path: ['bindings', i] }));
    if (!own.length) locateAgent(root, agentId); // an unknown agent is named as such, not as "no binding"
    const existing = own.map(({ b }) => matchKey(asObject(b?.match) ?? {}));
    throw new AppError(
      ErrorCode.NotFound,
      `agent "${agentId}" has no binding ${wanted} in openclaw.json; its bindings: ${existing.length ? existing.join(', ') : 'none'}`,
    );
  };
}

/** A match as canonical JSON: fixed key order, `account` folded into accountId, absent fields left out. */
function matchKey(written: object): string {
  const match = written as Record<string, unknown>;
  const peer = asObject(match.peer);
  return JSON.stringify(
    compact({
      channel: match.channel,
      accountId: match.accountId ?? match.account,
      peer: peer ? { kind: peer.kind, id: peer.id } : undefined,
      guildId: match.guildId,
      teamId: match.teamId,
    }),
  );
}

/** Where an agent's entry is in the root file, matching ids after normalization. */
export function locateAgent(root: Doc, id: string): { path: JsonPath; entry: Doc } {
  const agentId = normalizeAgentId(id);
  const agents = asObject(root.agents);
  const entries = asObject(agents?.entries);
  if (entries) {
    for (const [key, value] of Object.entries(entries)) {
      const entry = asObject(value);
      if (entry && normalizeAgentId(key) === agentId) return { path: ['agents', 'entries', key], entry };
    }
  }
  const list = Array.isArray(agents?.list) ? (agents?.list as unknown[]) : [];
  const index = list.findIndex((e) => normalizeAgentId(textOf(asObject(e)?.id)) === agentId);
  if (index >= 0) return { path: ['agents', 'list', index], entry: asObject(list[index]) as Doc };
  throw new AgentNotInFileError(agentId);
}

function fieldEdits(path: JsonPath, current: Doc, fields: object): Json5Edit[] {
  const edits: Json5Edit[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (value === null) {
      if (key in current) edits.push({ op: 'remove', path: [...path, key] });
    } else {
      edits.push({ op: 'set', path: [...path, key], value: typeof value === 'object' && !Array.isArray(value) ? compact(value) : value });
    }
  }
  return edits;
}

/** Drops undefined/null fields so they are not written as `null`. */
function compact<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}

function asObject(value: unknown): Doc | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Doc) : undefined;
}

/** A scalar written in the file as text (an id may be written as a number); anything else is no id. */
function textOf(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}
