import { isPlainObject } from '../../../common/is-record';
import type { Json5Edit, JsonPath } from '../writer/json5-edit';
import { toDottedPath } from '../pipeline/config-issue';
import { RETIRED_RELOAD_MODES } from './retired-openclaw-spellings';
import { OPENCLAW_KEYS } from './openclaw-keys';

/**
 * What `clawgate doctor --fix` rewrites: OpenClaw's pre-multi-agent layout (top-level `agent`, `identity`,
 * `routing`, `providers`, `logLevel`) moved to where each setting lives now, and the retired spellings the loader
 * reads with a warning (`reload.mode: "restart"`, `match.provider`) written in their current form. Computed on the
 * root file as written; the caller applies the edits with the comment-keeping writer. A setting whose new place is
 * already taken is left where it is and listed, so nothing the user wrote is overwritten or lost.
 */
export interface LegacyMigration {
  edits: Json5Edit[];
  /** One line per setting moved: `agent.model → agents.defaults.model`. */
  moved: string[];
  /** Settings left in place, with why (their new place is taken, or there is no current place for them). */
  left: string[];
}

/** The chat channels OpenClaw knows: under the old top-level `providers`, these were channels. */
const CHAT_CHANNELS = new Set([...(OPENCLAW_KEYS.keys?.get('channels')?.keys?.entries() ?? [])].filter(([, k]) => k.chatChannel).map(([id]) => id));

/** Where each key of the old `routing` section went (OpenClaw's doctor table); others have no current place. */
const ROUTING_MOVES: Record<string, JsonPath> = {
  groupChat: ['messages', 'groupChat'],
  queue: ['messages', 'queue'],
  allowFrom: ['channels', 'whatsapp', 'allowFrom'],
};

export function legacyLayoutMigration(doc: Record<string, unknown>): LegacyMigration {
  const m = new Migration(doc);
  if ('agent' in doc) m.moveAgent(doc.agent);
  if ('identity' in doc) m.moveIdentity(doc.identity);
  if ('routing' in doc) m.moveRouting(doc.routing);
  if ('providers' in doc) m.moveProviders(doc.providers);
  if ('logLevel' in doc) m.moveWhole(['logLevel'], ['logging', 'level']);
  m.retiredSpellings();
  return { edits: m.edits, moved: m.moved, left: m.left };
}

class Migration {
  readonly edits: Json5Edit[] = [];
  readonly moved: string[] = [];
  readonly left: string[] = [];
  /** Paths set by this migration, so two legacy settings never land on the same place. */
  private readonly taken = new Set<string>();
  /**
   * The document with this migration's sets applied: the writer sets a key only inside an object that exists, so a
   * setting moved to a section the file lacks creates it, and the next one moved there goes inside it.
   */
  private readonly view: Record<string, unknown>;

  constructor(private readonly doc: Record<string, unknown>) {
    this.view = structuredClone(doc);
  }

  /** `agent.<key>` → `agents.defaults.<key>`; its `tools` → `tools`, key by key. */
  moveAgent(agent: unknown): void {
    if (!isPlainObject(agent)) return this.keep(['agent'], 'not an object');
    const { tools, ...rest } = agent;
    const movedTools = isPlainObject(tools)
      ? this.removeMoved(['agent', 'tools'], Object.keys(tools), (key) => this.place(['agent', 'tools', key], ['tools', key], tools[key]), false)
      : tools === undefined;
    const movedRest = this.removeMoved(['agent'], Object.keys(rest), (key) => this.place(['agent', key], ['agents', 'defaults', key], rest[key]), false);
    if (movedTools && movedRest) this.remove(['agent']);
    else this.flushPartial();
  }

  /** `identity` → the default agent's `identity` (the one marked default, else the first; a `main` agent when there is none). */
  moveIdentity(identity: unknown): void {
    const agents = isPlainObject(this.doc.agents) ? this.doc.agents : undefined;
    const list = Array.isArray(agents?.list) ? (agents.list as unknown[]) : undefined;
    if (isPlainObject(agents?.entries)) {
      const entries = Object.entries(agents.entries);
      const [id] = entries.find(([, e]) => isPlainObject(e) && e.default === true) ?? entries[0] ?? [];
      if (id === undefined) return this.keep(['identity'], 'agents.entries has no agent to give it to');
      if (this.place(['identity'], ['agents', 'entries', id, 'identity'], identity)) this.remove(['identity']);
      return;
    }
    if (!list || list.length === 0) {
      const main = { id: 'main', default: true, identity };
      if (this.place(['identity'], ['agents', 'list'], [main], 'agents.list[0].identity (a "main" agent)')) this.remove(['identity']);
      return;
    }
    const index = Math.max(
      0,
      list.findIndex((a) => isPlainObject(a) && a.default === true),
    );
    if (this.place(['identity'], ['agents', 'list', index, 'identity'], identity)) this.remove(['identity']);
  }

  /** `routing.groupChat`/`queue` → `messages.*`, `allowFrom` → `channels.whatsapp.allowFrom`, `bindings` appended to `bindings`. */
  moveRouting(routing: unknown): void {
    if (!isPlainObject(routing)) return this.keep(['routing'], 'not an object');
    this.removeMoved(['routing'], Object.keys(routing), (key) => {
      const value = routing[key];
      const to = ROUTING_MOVES[key];
      if (to) return this.place(['routing', key], to, value);
      if (key === 'bindings' && Array.isArray(value)) {
        const existing = Array.isArray(this.doc.bindings) ? (this.doc.bindings as unknown[]) : [];
        this.edits.push({ op: 'set', path: ['bindings'], value: [...existing, ...(value as unknown[])] });
        this.moved.push(`routing.bindings → bindings (after the ${existing.length} there)`);
        return true;
      }
      this.left.push(`routing.${key}: OpenClaw has no current place for it; move or drop it by hand`);
      return false;
    });
  }

  /**
   * The old `providers`: a chat channel id → `channels.<id>`; another → `models.providers.<id>`, its `model` becoming
   * agents.defaults.model.
   */
  moveProviders(providers: unknown): void {
    if (!isPlainObject(providers)) return this.keep(['providers'], 'not an object');
    this.removeMoved(['providers'], Object.keys(providers), (id) => {
      const value = providers[id];
      if (CHAT_CHANNELS.has(id)) return this.place(['providers', id], ['channels', id], value);
      if (!isPlainObject(value)) {
        this.left.push(`providers.${id}: not an object`);
        return false;
      }
      const { model, ...settings } = value;
      if (model !== undefined && (this.at(['agents', 'defaults', 'model']) !== undefined || this.taken.has('agents.defaults.model'))) {
        this.left.push(`providers.${id}.model: agents.defaults.model is already set; merge the two by hand`);
        return false;
      }
      if (!this.place(['providers', id], ['models', 'providers', id], settings)) return false;
      // The old provider's model is the default model, as "<provider>/<model>".
      if (model !== undefined) this.place(['providers', id, 'model'], ['agents', 'defaults', 'model'], typeof model === 'string' && !model.includes('/') ? `${id}/${model}` : model);
      return true;
    });
  }

  moveWhole(from: JsonPath, to: JsonPath): void {
    if (this.place(from, to, this.at(from))) this.remove(from);
  }

  /** What the loader reads with a warning, written in its current form. */
  retiredSpellings(): void {
    const gateway = isPlainObject(this.doc.gateway) ? this.doc.gateway : undefined;
    const reload = isPlainObject(gateway?.reload) ? gateway.reload : undefined;
    if (typeof reload?.mode === 'string' && RETIRED_RELOAD_MODES.includes(reload.mode)) {
      this.edits.push({ op: 'set', path: ['gateway', 'reload', 'mode'], value: 'hybrid' });
      this.moved.push(`gateway.reload.mode "${reload.mode}" → "hybrid"`);
    }
    const bindings = Array.isArray(this.doc.bindings) ? (this.doc.bindings as unknown[]) : [];
    bindings.forEach((binding, i) => {
      const match = isPlainObject(binding) && isPlainObject(binding.match) ? binding.match : undefined;
      if (match?.provider === undefined || 'channel' in match) return;
      this.edits.push({ op: 'set', path: ['bindings', i, 'match', 'channel'], value: match.provider });
      this.edits.push({ op: 'remove', path: ['bindings', i, 'match', 'provider'] });
      this.moved.push(`bindings[${i}].match.provider → bindings[${i}].match.channel`);
    });
  }

  private readonly partial: Json5Edit[] = [];

  /**
   * Moves each key of `parent` with `move` (true when moved). All moved: the parent is removed (when `removeParent`),
   * else only the moved keys are, so a key is never both in its old and its new place. Returns whether all moved.
   */
  private removeMoved(parent: JsonPath, keys: string[], move: (key: string) => boolean, removeParent = true): boolean {
    const moved = keys.filter((key) => move(key));
    const all = moved.length === keys.length;
    const removals = moved.map((key): Json5Edit => ({ op: 'remove', path: [...parent, key] }));
    if (all && removeParent) this.remove(parent);
    else if (!all && removeParent) this.edits.push(...removals);
    else this.partial.push(...removals);
    return all;
  }

  /** The removals of keys moved out of a section that keeps others. */
  private flushPartial(): void {
    this.edits.push(...this.partial.splice(0));
  }

  /** Sets `to` unless something is there already (in the file or set by this migration); true when it did. */
  private place(from: JsonPath, to: JsonPath, value: unknown, shown = toDottedPath(to)): boolean {
    const key = toDottedPath(to);
    if (this.at(to) !== undefined || this.taken.has(key)) {
      this.left.push(`${toDottedPath(from)}: ${shown} is already set; merge the two by hand`);
      return false;
    }
    this.taken.add(key);
    this.setInView(to, value);
    this.moved.push(`${toDottedPath(from)} → ${shown}`);
    return true;
  }

  /** One set edit at the first missing section of `path` (with the rest of the path as nested objects), applied to the view. */
  private setInView(path: JsonPath, value: unknown): void {
    let node: Record<string, unknown> | unknown[] = this.view;
    for (let i = 0; i < path.length; i++) {
      const segment = path[i];
      const last = i === path.length - 1;
      const child: unknown = Array.isArray(node) ? node[segment as number] : node[segment as string];
      if (last || !(isPlainObject(child) || Array.isArray(child))) {
        const nested = path.slice(i + 1).reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
        this.edits.push({ op: 'set', path: path.slice(0, i + 1), value: nested });
        if (Array.isArray(node)) node[segment as number] = structuredClone(nested);
        else node[segment as string] = structuredClone(nested);
        return;
      }
      node = child;
    }
  }

  private remove(path: JsonPath): void {
    this.edits.push({ op: 'remove', path });
  }

  private keep(path: JsonPath, why: string): void {
    this.left.push(`${toDottedPath(path)}: ${why}`);
  }

  private at(path: JsonPath): unknown {
    let node: unknown = this.view;
    for (const segment of path) {
      if (Array.isArray(node) && typeof segment === 'number') node = node[segment];
      else if (isPlainObject(node) && typeof segment === 'string' && Object.hasOwn(node, segment)) node = node[segment];
      else return undefined;
    }
    return node;
  }
}
