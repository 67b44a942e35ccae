import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { isCanonicalAgentId } from '../../common/agent-id';
import { CONFIG_DEFAULTS, type MemorySettings, type ResolvedAgent } from '../config';
import { globMatches, isHiddenPath } from './glob-pattern';

/** Where a collection comes from (docs/memory.md#collections), shown by the admin API. */
export type CollectionKind = 'memory-root' | 'memory-dir' | 'sessions' | 'path' | 'extra';

/** A named set of files one agent may search: every file under `root` whose relative path matches `pattern`. */
export interface MemoryCollection {
  name: string;
  kind: CollectionKind;
  /** Absolute directory. */
  root: string;
  pattern: string;
  /**
   * Set when `root` is a session dir of this gateway's state dir (`<stateDir>/agents/<id>/sessions`): the
   * agent whose sessions are then the collection's documents, read from the session store (transcripts are
   * no longer files there). See collection-source.ts.
   */
  transcriptsOf?: string;
  /**
   * Identity of (name, root, pattern, and whether it reads the session store). Index rows carry it, so a
   * collection whose path or pattern changed on reload can never serve its old files, even before the
   * resync has removed them.
   */
  key: string;
}

/** The pattern of a collection that names none; the agent's own memory/ directory uses it too. */
export const DEFAULT_PATTERN = CONFIG_DEFAULTS.each.memoryCollection.pattern;
/** A session dir's documents are named `<sessionId>.jsonl`, as the file layout named its transcripts. */
export const SESSIONS_PATTERN = '*.jsonl';
const SESSION_DOCUMENT_SUFFIX = '.jsonl';
const SESSION_DIR_PATTERN = `{${DEFAULT_PATTERN},${SESSIONS_PATTERN}}`;

/**
 * The collections of one agent. With `memory.backend: "qmd"` (the collection model of docs/memory.md#collections), in this
 * order: its own MEMORY.md and memory/ (includeDefaultMemory), its own transcripts (sessions.enabled), every
 * memory.qmd.paths entry (relative paths inside its workspace), its extraCollections. With `builtin` (the
 * default) just its own MEMORY.md and memory/ — the qmd.* settings and extraCollections belong to the qmd
 * collection model, as in OpenClaw. Nothing else: this list is the whole of what the agent can search or
 * read. A later entry with a name already taken is dropped, so a name always designates one directory.
 */
export function agentCollections(
  agent: Pick<ResolvedAgent, 'id' | 'workspace' | 'sessionsDir' | 'extraCollections'>,
  memory: MemorySettings,
  allAgents: ReadonlyArray<Pick<ResolvedAgent, 'sessionsDir'>> = [],
  /** The gateway's state dir: collections on its session dirs read the session store. Unset: files only. */
  stateDir?: string,
): MemoryCollection[] {
  const out: Array<Omit<MemoryCollection, 'key'>> = [];
  const qmd = memory.backend === 'qmd';
  if (!qmd || memory.qmd.includeDefaultMemory) {
    out.push({ name: `memory-root-${agent.id}`, kind: 'memory-root', root: agent.workspace, pattern: 'MEMORY.md' });
    out.push({ name: `memory-dir-${agent.id}`, kind: 'memory-dir', root: path.join(agent.workspace, 'memory'), pattern: DEFAULT_PATTERN });
  }
  if (!qmd) return finish(out, stateDir);
  if (memory.qmd.sessionsEnabled) {
    out.push({ name: `sessions-${agent.id}`, kind: 'sessions', root: agent.sessionsDir, pattern: SESSIONS_PATTERN });
  }
  for (const p of memory.qmd.paths) {
    const root = path.isAbsolute(p.path) ? p.path : path.resolve(agent.workspace, p.path);
    out.push({ name: p.name, kind: 'path', root, pattern: p.pattern ?? DEFAULT_PATTERN });
  }
  const sessionDirs = new Set(allAgents.map((a) => path.resolve(a.sessionsDir)));
  for (const c of agent.extraCollections) {
    const isSessionDir = sessionDirs.has(path.resolve(c.path)) || path.basename(c.path) === 'sessions';
    out.push({ name: c.name, kind: 'extra', root: c.path, pattern: c.pattern ?? (isSessionDir ? SESSION_DIR_PATTERN : DEFAULT_PATTERN) });
  }
  return finish(out, stateDir);
}

/**
 * The agent whose session dir `dir` is, when it is `<stateDir>/agents/<id>/sessions` of this state dir —
 * whether or not that agent is configured (a removed agent's sessions are still in the store). Anything
 * else, a session dir of another state dir or a copied OpenClaw layout included, is a plain directory.
 */
export function sessionDirAgent(stateDir: string, dir: string): string | undefined {
  const parts = path.relative(path.join(path.resolve(stateDir), 'agents'), path.resolve(dir)).split(path.sep);
  return parts.length === 2 && parts[1] === 'sessions' && isCanonicalAgentId(parts[0]) ? parts[0] : undefined;
}

/**
 * Settings that only the qmd collection model reads, present on this agent while the backend is builtin
 * (worth a warning: the operator probably expects them to work).
 */
export function ignoredByBuiltin(agent: Pick<ResolvedAgent, 'extraCollections'>, memory: MemorySettings): string[] {
  if (memory.backend === 'qmd') return [];
  return [
    ...(agent.extraCollections.length ? ['memorySearch.qmd.extraCollections'] : []),
    ...(memory.qmd.paths.length ? ['memory.qmd.paths'] : []),
    ...(memory.qmd.sessionsEnabled ? ['memory.qmd.sessions.enabled'] : []),
  ];
}

function finish(out: Array<Omit<MemoryCollection, 'key'>>, stateDir: string | undefined): MemoryCollection[] {
  const seen = new Set<string>();
  return out
    .filter((c) => !seen.has(c.name) && seen.add(c.name))
    .map((c) => {
      const transcriptsOf = stateDir === undefined ? undefined : sessionDirAgent(stateDir, c.root);
      const full = { ...c, root: path.resolve(c.root), ...(transcriptsOf !== undefined ? { transcriptsOf } : {}) };
      return { ...full, key: collectionKey(full) };
    });
}

export function collectionKey(c: Pick<MemoryCollection, 'name' | 'root' | 'pattern' | 'transcriptsOf'>): string {
  // A file collection's key leaves the source out, so indexes written before session collections existed stay valid.
  const source = c.transcriptsOf === undefined ? '' : '\u0000sessions';
  return createHash('sha256')
    .update(`${c.name}\u0000${path.resolve(c.root)}\u0000${c.pattern}${source}`)
    .digest('hex')
    .slice(0, 16);
}

/** The path a session's transcript has in a collection on its agent's session dir (the file layout's name). */
export function sessionDocumentPath(c: Pick<MemoryCollection, 'root'>, sessionId: string): string {
  return path.join(c.root, `${sessionId}${SESSION_DOCUMENT_SUFFIX}`);
}

/** The session id named by a path of a session collection (`<root>/<sessionId>.jsonl`), else undefined. */
export function sessionIdOfPath(c: MemoryCollection, file: string): string | undefined {
  const rel = relativeInCollection(c, file);
  if (rel === undefined || rel.includes('/') || !rel.endsWith(SESSION_DOCUMENT_SUFFIX)) return undefined;
  return rel.slice(0, -SESSION_DOCUMENT_SUFFIX.length) || undefined;
}

export function isInsideDir(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The path of `file` relative to the collection root when the collection includes it, else undefined. */
export function relativeInCollection(c: MemoryCollection, file: string): string | undefined {
  const rel = path.relative(c.root, file);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const posix = rel.split(path.sep).join('/');
  if (isHiddenPath(posix) || !globMatches(c.pattern, posix)) return undefined;
  return posix;
}

/** `.jsonl` files are transcripts (user/assistant text only); everything else is read as Markdown. */
export function fileKind(file: string): 'transcript' | 'markdown' {
  return file.endsWith('.jsonl') ? 'transcript' : 'markdown';
}

/**
 * How a file is named to the model: relative to the agent workspace when it lies there (`MEMORY.md`,
 * `memory/2024-05.md`), else `<collection>/<path in collection>`. memory_get accepts both forms back.
 */
export function displayPath(workspace: string, c: Pick<MemoryCollection, 'name' | 'root'>, rel: string): string {
  const abs = path.join(c.root, rel);
  const inWorkspace = path.relative(workspace, abs);
  if (inWorkspace && !inWorkspace.startsWith('..') && !path.isAbsolute(inWorkspace)) return inWorkspace.split(path.sep).join('/');
  return `${c.name}/${rel}`;
}

export function sameCollections(a: readonly MemoryCollection[], b: readonly MemoryCollection[]): boolean {
  return a.length === b.length && a.every((c, i) => c.key === b[i].key);
}
