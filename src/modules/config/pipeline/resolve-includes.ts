import { promises as fs } from 'fs';
import * as path from 'path';
import { ConfigIssue, ConfigLoadError, toDottedPath } from './config-issue';
import { fileStamp, FileStamp } from './file-stamp';
import { nestingIssue } from './nesting-limit';
import { parseJson5 } from './parse-json5';
import { isPlainObject } from '../../../common/is-record';

/**
 * Pipeline step 2: expand `$include` directives into one merged document.
 *
 * The config may be split over several files (`{ $include: './agents.json5', gateway: {...} }`).
 * Included files are untrusted in the sense that a typo or a hostile edit must not make the
 * gateway read arbitrary files, so every target is confined to the config directory (after
 * symlinks are resolved), sizes and depth are capped, and cycles are reported instead of recursing.
 */

export interface IncludeResult {
  /** Merged document, without any `$include` keys. */
  value: Record<string, unknown>;
  /** Absolute real paths of every file read (root first). */
  files: string[];
  /**
   * Every path a file was reached through: the root and each `$include` target as written (resolved against
   * the including file, symlinks kept) and as resolved (`files`). What a load reads changes when any of them
   * does (a re-pointed symlink changes no file of `files`), so these are what the watcher follows.
   */
  paths: string[];
  /**
   * Dotted path of each key whose value came from an included file (and was not overridden by a
   * sibling) -> absolute real path of that file. Only the keys at each include site are recorded.
   */
  includedPaths: Map<string, string>;
  /**
   * Each of `paths` of an included file (and of the root when this function read it) -> the stamp of that
   * file, taken right before it was read.
   */
  stamps: Map<string, FileStamp>;
}

export const INCLUDE_LIMITS = { maxDepth: 10, maxFileBytes: 2 * 1024 * 1024 };

type Segment = string | number;
/** Dotted path -> file, as in IncludeResult.includedPaths. */
type Origins = Map<string, string>;
/** A resolved value plus where its include-site keys came from; merged together. */
interface Resolved {
  value: unknown;
  origins: Origins;
}

/** State shared by the whole resolution. */
interface Context {
  configDir: string;
  issues: ConfigIssue[];
  files: Set<string>;
  paths: Set<string>;
  stamps: Map<string, FileStamp>;
  /** Real path → text to use instead of the file's (a candidate edit not written yet). */
  overrides?: ReadonlyMap<string, string>;
}

/** The file currently being walked. */
interface Frame {
  /** Path reported in issues for problems found in this file. */
  file: string;
  /** Directory that relative `$include` paths in this file are resolved against. */
  dir: string;
  /** 0 for the root file, 1 for a file it includes, ... */
  depth: number;
  /** Real paths from the root down to this file, for cycle detection. */
  chain: string[];
}

export async function resolveIncludes(
  rootFile: string,
  rootText?: string,
  overrides?: ReadonlyMap<string, string>,
): Promise<IncludeResult> {
  const rootAbs = path.resolve(rootFile);
  const rootFail = (message: string): never => {
    throw new ConfigLoadError([{ path: '', file: rootAbs, message }]);
  };

  // The confinement boundary is the *real* directory of the root file, so a config dir that is
  // itself reached through a symlink (common with ConfigMaps / stow) still works.
  let configDir: string;
  try {
    configDir = await fs.realpath(path.dirname(rootAbs));
  } catch (err) {
    return rootFail(`cannot access the config directory: ${errorCode(err)}`);
  }
  const rootReal = await fs.realpath(rootAbs).catch(() => rootAbs);

  const stamps = new Map<string, FileStamp>();
  let text = rootText;
  if (text === undefined) {
    const read = await readLimited(rootReal, 'config file');
    if ('message' in read) return rootFail(read.message);
    text = read.text;
    stamps.set(rootAbs, read.stamp);
    stamps.set(rootReal, read.stamp);
  } else if (Buffer.byteLength(text, 'utf8') > INCLUDE_LIMITS.maxFileBytes) {
    return rootFail(tooBig('config file', Buffer.byteLength(text, 'utf8')));
  }

  const parsed = parseJson5(text, rootAbs); // throws its own ConfigLoadError
  if (!isPlainObject(parsed)) return rootFail(`the config must be an object, got ${kindOf(parsed)}`);
  // Before anything walks the document recursively.
  const tooDeep = nestingIssue(parsed);
  if (tooDeep) throw new ConfigLoadError([{ ...tooDeep, file: rootAbs }]);

  const ctx: Context = { configDir, issues: [], files: new Set([rootReal]), paths: new Set([rootAbs, rootReal]), stamps, overrides };
  const frame: Frame = { file: rootAbs, dir: configDir, depth: 0, chain: [rootReal] };
  const resolved = await resolveNode(parsed, [], ctx, frame);
  if (ctx.issues.length) throw new ConfigLoadError(ctx.issues);

  return {
    value: resolved.value as Record<string, unknown>,
    files: [...ctx.files],
    paths: [...ctx.paths],
    includedPaths: resolved.origins,
    stamps,
  };
}

/** Walks a value; every object (also inside arrays) may carry a `$include`. */
async function resolveNode(node: unknown, segs: Segment[], ctx: Context, frame: Frame): Promise<Resolved> {
  if (Array.isArray(node)) {
    const value: unknown[] = [];
    const origins: Origins = new Map();
    for (let i = 0; i < node.length; i++) {
      const child = await resolveNode(node[i], [...segs, i], ctx, frame);
      value.push(child.value);
      child.origins.forEach((f, p) => origins.set(p, f));
    }
    return { value, origins };
  }
  if (!isPlainObject(node)) return { value: node, origins: new Map() };

  // The included content is the base layer, so load it first (this also keeps `files` in the
  // order a reader would follow).
  const hasInclude = Object.prototype.hasOwnProperty.call(node, '$include');
  const included = hasInclude ? await resolveDirective(node.$include, segs, ctx, frame) : undefined;

  const siblings: Resolved = { value: {}, origins: new Map() };
  for (const [key, child] of Object.entries(node)) {
    if (key === '$include') continue;
    const r = await resolveNode(child, [...segs, key], ctx, frame);
    setOwn(siblings.value as Record<string, unknown>, key, r.value);
    r.origins.forEach((f, p) => siblings.origins.set(p, f));
  }
  // Siblings are written next to the `$include`, so they are the more specific intent: they win.
  return included ? mergeResolved(included, siblings, segs) : siblings;
}

/** Loads every target of one `$include` and merges them in order (later overrides earlier). */
async function resolveDirective(spec: unknown, segs: Segment[], ctx: Context, frame: Frame): Promise<Resolved> {
  const at = toDottedPath([...segs, '$include']);
  let acc: Resolved = { value: {}, origins: new Map() };
  const targets = typeof spec === 'string' ? [spec] : spec;
  if (!Array.isArray(targets) || !targets.every((t) => typeof t === 'string' && t !== '')) {
    const message = '"$include" must be a non-empty string or an array of non-empty strings';
    ctx.issues.push({ path: at, file: frame.file, message });
    return acc;
  }
  for (const given of targets as string[]) {
    const layer = await loadIncluded(given, segs, at, ctx, frame);
    if (layer) acc = mergeResolved(acc, layer, segs);
  }
  return acc;
}

/** Reads, checks and resolves one included file. Records an issue and returns undefined on failure. */
async function loadIncluded(given: string, segs: Segment[], at: string, ctx: Context, frame: Frame): Promise<Resolved | undefined> {
  const fail = (message: string): undefined => {
    ctx.issues.push({ path: at, file: frame.file, message });
    return undefined;
  };
  const outside = `"$include" target ${given} resolves outside the config directory`;

  // Check lexically first so we never even probe for the existence of files outside the dir,
  // then again after realpath to catch symlinks pointing out.
  const lexical = path.resolve(frame.dir, given);
  if (!isInside(ctx.configDir, lexical)) return fail(outside);
  let real: string;
  try {
    real = await fs.realpath(lexical);
  } catch (err) {
    return fail(
      errorCode(err) === 'ENOENT'
        ? `"$include" target ${given} does not exist`
        : `cannot resolve "$include" target ${given}: ${errorCode(err)}`,
    );
  }
  if (!isInside(ctx.configDir, real)) return fail(outside);

  const seen = frame.chain.indexOf(real);
  if (seen >= 0) {
    const loop = [...frame.chain.slice(seen), real].map((f) => displayName(ctx.configDir, f));
    return fail(`include cycle: ${loop.join(' -> ')}`);
  }
  const depth = frame.depth + 1;
  if (depth > INCLUDE_LIMITS.maxDepth) {
    return fail(`"$include" target ${given} is nested ${depth} levels deep; the limit is ${INCLUDE_LIMITS.maxDepth}`);
  }

  const override = ctx.overrides?.get(real);
  const read = override === undefined ? await readLimited(real, `included file ${given}`) : overrideText(override, given);
  if ('message' in read) return fail(read.message);
  ctx.files.add(real);
  ctx.paths.add(lexical).add(real);
  if (read.stamp) ctx.stamps.set(lexical, read.stamp).set(real, read.stamp);

  let parsed: unknown;
  try {
    parsed = parseJson5(read.text, real);
  } catch (err) {
    if (!(err instanceof ConfigLoadError)) throw err;
    // Keep the included file's line/column, but say which `$include` pulled it in.
    ctx.issues.push(...err.issues.map((i) => ({ ...i, path: at })));
    return undefined;
  }
  if (!isPlainObject(parsed)) {
    return fail(`included file ${given} must contain an object, got ${kindOf(parsed)}`);
  }
  // The file's content lands at the include site, so the depth counts from there.
  const tooDeep = nestingIssue(parsed, segs);
  if (tooDeep) {
    ctx.issues.push({ ...tooDeep, file: real });
    return undefined;
  }

  const inner = await resolveNode(parsed, segs, ctx, {
    file: real,
    dir: path.dirname(real),
    depth,
    chain: [...frame.chain, real],
  });
  // Keys at this include site come from this file, unless an `$include` inside the file already
  // attributed them to a deeper file (that one is where the text actually lives).
  const origins = new Map(inner.origins);
  for (const key of Object.keys(inner.value as object)) {
    const p = toDottedPath([...segs, key]);
    if (!origins.has(p)) origins.set(p, real);
  }
  return { value: inner.value, origins };
}

/** Deep-merges `over` onto `base` and keeps includedPaths truthful while doing so. */
function mergeResolved(base: Resolved, over: Resolved, segs: Segment[]): Resolved {
  const origins = new Map(base.origins);
  const overOrigins = new Map(over.origins);
  const value = mergeValues(base.value, over.value, segs, origins, overOrigins);
  overOrigins.forEach((f, p) => origins.set(p, f));
  return { value, origins };
}

/**
 * Objects merge key by key, arrays concatenate (base first), anything else: `over` wins.
 * A key touched by `over` is no longer purely from base's file, so its record is dropped; a value
 * replaced wholesale also loses the records below it.
 */
function mergeValues(base: unknown, over: unknown, segs: Segment[], origins: Origins, overOrigins: Origins): unknown {
  if (isPlainObject(base) && isPlainObject(over)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(base)) setOwn(out, k, v);
    for (const [k, v] of Object.entries(over)) {
      if (Object.prototype.hasOwnProperty.call(base, k)) {
        const child = [...segs, k];
        origins.delete(toDottedPath(child));
        setOwn(out, k, mergeValues(base[k], v, child, origins, overOrigins));
      } else {
        setOwn(out, k, v);
      }
    }
    return out;
  }
  const here = toDottedPath(segs);
  if (Array.isArray(base) && Array.isArray(over)) {
    // over's elements move behind base's, so records inside them must follow.
    shiftIndexes(overOrigins, here, base.length);
    return [...(base as unknown[]), ...(over as unknown[])];
  }
  for (const p of [...origins.keys()]) if (isBelow(p, here)) origins.delete(p);
  return over;
}

function shiftIndexes(origins: Origins, arrayPath: string, by: number): void {
  if (by === 0) return;
  const moved: Array<[string, string]> = [];
  for (const [p, f] of [...origins]) {
    const m = p.startsWith(`${arrayPath}[`) ? /^\[(\d+)\](.*)$/.exec(p.slice(arrayPath.length)) : null;
    if (!m) continue;
    origins.delete(p);
    moved.push([`${arrayPath}[${Number(m[1]) + by}]${m[2]}`, f]);
  }
  for (const [p, f] of moved) origins.set(p, f);
}

function isBelow(p: string, parent: string): boolean {
  return p.startsWith(`${parent}.`) || p.startsWith(`${parent}[`);
}

/**
 * Stat before reading so a huge (or endless, e.g. /dev/zero-like) file is never loaded. The same stat is the
 * file's stamp: taken before the read, so any later change differs from it.
 */
async function readLimited(real: string, label: string): Promise<{ text: string; stamp: FileStamp } | { message: string }> {
  try {
    const stat = await fs.stat(real, { bigint: true });
    if (!stat.isFile()) return { message: `${label} is not a regular file` };
    if (stat.size > BigInt(INCLUDE_LIMITS.maxFileBytes)) return { message: tooBig(label, Number(stat.size)) };
    return { text: await fs.readFile(real, 'utf8'), stamp: fileStamp(stat) };
  } catch (err) {
    return { message: `cannot read ${label}: ${errorCode(err)}` };
  }
}

/** A candidate's text for an included file, under the same size limit as a read; it has no stamp yet. */
function overrideText(text: string, given: string): { text: string; stamp?: FileStamp } | { message: string } {
  const size = Buffer.byteLength(text, 'utf8');
  return size > INCLUDE_LIMITS.maxFileBytes ? { message: tooBig(`included file ${given}`, size) } : { text };
}

function tooBig(label: string, size: number): string {
  return `${label} is ${size} bytes; the limit is ${INCLUDE_LIMITS.maxFileBytes} bytes (2 MiB)`;
}

function isInside(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

function displayName(configDir: string, real: string): string {
  return isInside(configDir, real) ? path.relative(configDir, real) : path.basename(real);
}

/** defineProperty so a `__proto__` key in a config file stays data and never touches prototypes. */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}

function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException)?.code ?? String(err);
}
