import { isPlainObject } from '../../../common/is-record';
import { suggestClosest } from '../../../common/text/did-you-mean';
import { ConfigIssue, toDottedPath } from '../pipeline/config-issue';
import { OpenClawKey } from './openclaw-key-tree';
import { OPENCLAW_KEYS } from './openclaw-keys';
import { CORE_CHANNELS } from '../plugins/read-manifest';

type Segment = string | number;

export interface SetAsideResult {
  /** The document without the recognised OpenClaw settings clawgate does not use; the input is not changed. */
  document: unknown;
  /** Where each setting set aside was, in document order (a whole section counts once). */
  unsupported: Segment[][];
  /** Chat channels configured under `channels` that OpenClaw knows and no plugin found provides (set aside too). */
  unprovidedChannels: string[];
  /** Refused and legacy settings, and unknown keys inside a recognised setting. */
  errors: ConfigIssue[];
}

/** A channel named like a plugin of the same file: recognised, its contents the plugin's. */
const PLUGIN_CHANNEL: OpenClawKey = { status: 'unsupported', chatChannel: true };

/**
 * Takes out of a config document the settings OpenClaw documents and clawgate does not use (marked
 * `unsupported` in openclaw-keys.ts), so that strict validation sees only what clawgate implements and
 * the caller can report them as warnings. Runs before `${VAR}` substitution: a setting that is never read
 * needs none of its variables. Keys the data does not know are left in place for the schema to accept
 * (clawgate's own) or reject with did-you-mean (typos, inventions). A chat channel a found plugin provides
 * (`providedChannels`) is left in place too: the plugin's schema checks it after `${VAR}` substitution.
 */
export function setAsideOpenClawSettings(
  doc: unknown,
  root: OpenClawKey = OPENCLAW_KEYS,
  providedChannels: ReadonlySet<string> = new Set(),
): SetAsideResult {
  const walk = new SettingsWalk(pluginIdsOf(doc), providedChannels);
  const document = walk.implemented(doc, root, []);
  return { document, unsupported: walk.unsupported, unprovidedChannels: walk.unprovidedChannels, errors: walk.errors };
}

class SettingsWalk {
  readonly unsupported: Segment[][] = [];
  readonly errors: ConfigIssue[] = [];
  readonly unprovidedChannels: string[] = [];

  constructor(
    private readonly pluginIds: ReadonlySet<string>,
    private readonly providedChannels: ReadonlySet<string>,
  ) {}

  /** Visits a value clawgate's schema owns; returns it, or a copy without the settings set aside. */
  implemented(value: unknown, node: OpenClawKey, path: Segment[]): unknown {
    if (node.each?.kind === 'list') {
      if (!Array.isArray(value)) return value;
      const items = value.map((item, i) => this.implemented(item, node.each!.node, [...path, i]));
      return items.some((item, i) => item !== value[i]) ? items : value;
    }
    if (!isPlainObject(value)) return value;
    let out: Record<string, unknown> | undefined;
    const change = () => (out ??= { ...value });
    for (const [key, child] of Object.entries(value)) {
      if (node.pluginChannels && this.providedChannels.has(key)) {
        // The plugin's schema checks its section; OpenClaw keys the bundled plugin lacks are set aside first.
        const provided = node.keys?.get(key)?.provided;
        const next = provided ? this.implemented(child, provided, [...path, key]) : child;
        if (next !== child) change()[key] = next;
        continue;
      }
      const known = this.keyOf(node, key);
      if (!known) continue;
      const at = [...path, key];
      if (known.status === 'implemented') {
        const next = this.implemented(child, known, at);
        if (next !== child) change()[key] = next;
        continue;
      }
      if (known.status === 'unsupported' && known.chatChannel) {
        this.unprovidedChannels.push(key);
      } else if (known.status === 'unsupported') {
        this.unsupported.push(at);
        this.checkInside(child, known, at);
      } else if (known.status === 'refused') {
        this.errors.push({ path: toDottedPath(at), message: `recognised OpenClaw setting, not supported by clawgate and not ignored: ${known.note}` });
      } else {
        this.errors.push({ path: toDottedPath(at), message: `old OpenClaw setting, no longer accepted: ${known.note}` });
      }
      // Set aside in every case: a refused or legacy key already has its error, the schema would only add "unknown key".
      delete change()[key];
    }
    return out ?? value;
  }

  /** The node of `key` under an implemented node: a listed key, a map entry, or a plugin's chat channel. */
  private keyOf(node: OpenClawKey, key: string): OpenClawKey | undefined {
    if (node.each?.kind === 'map') return node.each.node;
    // A core channel (a2a, http) is the schema's even when the file names its bundled plugin (`plugins.entries.a2a`).
    return node.keys?.get(key) ?? (node.pluginChannels && this.pluginIds.has(key) && !CORE_CHANNELS.has(key) ? PLUGIN_CHANNEL : undefined);
  }

  /** Inside an unsupported setting whose keys the data lists: a key OpenClaw does not document is a typo. */
  private checkInside(value: unknown, node: OpenClawKey, path: Segment[]): void {
    const keys = node.keys;
    if (!keys || !isPlainObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const known = keys.get(key);
      if (known) this.checkInside(child, known, [...path, key]);
      else if (!node.moreKeys) {
        const hint = suggestClosest(key, [...keys.keys()]);
        this.errors.push({ path: toDottedPath([...path, key]), message: `unknown key${hint ? ` (did you mean "${hint}"?)` : ''}` });
      }
    }
  }
}

/** The plugin ids a document names (plugins.entries, plugins.installs, plugins.allow): their chat channels are recognised. */
function pluginIdsOf(doc: unknown): Set<string> {
  const plugins = isPlainObject(doc) ? doc.plugins : undefined;
  if (!isPlainObject(plugins)) return new Set();
  const names = [
    ...(isPlainObject(plugins.entries) ? Object.keys(plugins.entries) : []),
    ...(isPlainObject(plugins.installs) ? Object.keys(plugins.installs) : []),
    ...(Array.isArray(plugins.allow) ? plugins.allow.filter((n): n is string => typeof n === 'string') : []),
  ];
  return new Set(names);
}
