/**
 * The shape of the OpenClaw key data (openclaw-keys.ts): a tree of the settings OpenClaw documents for
 * openclaw.json, each marked with what clawgate does with it. The data is the one place that says which
 * OpenClaw settings clawgate recognises; the loader, the validator's did-you-mean and the generated
 * docs/openclaw-compatibility.md all read it.
 */

/**
 * - `implemented`: clawgate's schema owns the key (its value is validated and used).
 * - `unsupported`: recognised, not used: the file loads and the setting is reported as a warning.
 * - `refused`: recognised, not used, and not ignored either: loading without it would leave the gateway or
 *   its agents less restricted than the file asks, so it stays an error that says why.
 * - `legacy`: an old OpenClaw spelling that OpenClaw itself no longer accepts; an error naming where it moved.
 */
export type OpenClawKeyStatus = 'implemented' | 'unsupported' | 'refused' | 'legacy';

export interface OpenClawKey {
  readonly status: OpenClawKeyStatus;
  /**
   * The keys OpenClaw documents inside this object. For an unsupported key without them, anything inside is
   * accepted unread; with them, a key that is not listed is an error (a typo), unless `moreKeys` is set.
   */
  readonly keys?: ReadonlyMap<string, OpenClawKey>;
  /** Unsupported objects whose contents OpenClaw or its plugins write freely (`meta`, `env`): other keys are accepted too. */
  readonly moreKeys?: boolean;
  /** Every entry of a map (`agents.entries.<id>`, `models.providers.<id>`) or element of a list (`bindings[]`). */
  readonly each?: { readonly kind: 'map' | 'list'; readonly node: OpenClawKey };
  /** `channels`: a key named like a plugin of the same file (plugins.entries, installs, allow) is that plugin's chat channel. */
  readonly pluginChannels?: boolean;
  /** A chat channel OpenClaw knows (`channels.telegram`): a plugin provides it; while none does, it loads with a warning. */
  readonly chatChannel?: boolean;
  /**
   * A chat channel a bundled plugin provides: the OpenClaw keys of its section (and of each `accounts.<id>`) that the
   * plugin does not implement. They are set aside with a warning; the rest is the plugin's schema's to check.
   */
  readonly provided?: OpenClawKey;
  /** refused: why clawgate does not ignore it; legacy: what became of it ("moved to …", "removed by OpenClaw …"). */
  readonly note?: string;
}

type Keys = Record<string, OpenClawKey>;

const toMap = (keys?: Keys): ReadonlyMap<string, OpenClawKey> | undefined => (keys ? new Map(Object.entries(keys)) : undefined);

/** A key clawgate's schema owns; `keys` lists the OpenClaw keys inside it (implemented or not). */
export function implemented(keys?: Keys, options: { pluginChannels?: boolean } = {}): OpenClawKey {
  return { status: 'implemented', keys: toMap(keys), ...options };
}

/** A map or list clawgate's schema owns, each entry shaped like `entry`. */
export function implementedEach(kind: 'map' | 'list', entry: OpenClawKey): OpenClawKey {
  return { status: 'implemented', each: { kind, node: entry } };
}

/** A recognised setting clawgate does not use. Without `keys` its contents are not checked. */
export function unsupported(keys?: Keys, options: { moreKeys?: boolean } = {}): OpenClawKey {
  return { status: 'unsupported', keys: toMap(keys), ...options };
}

/** A recognised setting that stays an error: `why` says what ignoring it would loosen and what to use instead. */
export function refused(why: string): OpenClawKey {
  return { status: 'refused', note: why };
}

/** An old OpenClaw spelling; `fate` says what became of it ("moved to …", "removed by OpenClaw …"). */
export function legacy(fate: string): OpenClawKey {
  return { status: 'legacy', note: fate };
}

/** Space-separated chat channel names: recognised, their contents the providing plugin's to check. */
export function chatChannels(names: string): Keys {
  return Object.fromEntries(
    names
      .split(/\s+/)
      .filter(Boolean)
      .map((name) => [name, { status: 'unsupported', chatChannel: true } satisfies OpenClawKey]),
  );
}

/**
 * A chat channel OpenClaw knows whose bundled plugin implements only part of OpenClaw's section: `notImplemented`
 * (space-separated) are the OpenClaw keys the plugin lacks, at the section's top and in each `accounts.<id>`;
 * `own` describes keys of this channel alone whose insides the plugin implements only in part (Discord's `guilds`,
 * Slack's `channels.<id>`).
 */
export function partlyProvidedChatChannel(notImplemented: string, own: Keys = {}): OpenClawKey {
  const lacking = unsupportedNames(notImplemented);
  // Per group: requireMention, enabled and allowFrom (the sender allowlist) are the gateway's (channel-common-schema.ts);
  // the group's prompt, skills and topic settings are unused; its own policy and tools stay errors, since ignoring them
  // would open the group wider or give its senders tools the file takes away.
  const groups = implementedEach(
    'map',
    implemented({
      requireMention: implemented(),
      enabled: implemented(),
      allowFrom: implemented(),
      ...unsupportedNames('systemPrompt skills topics'),
      groupPolicy: refused('a per-group policy; ignoring "disabled" or "allowlist" would let the group or its senders in (use the group\'s enabled and allowFrom)'),
      tools: refused('a per-group tool policy; ignoring it could give the group\'s senders tools it takes away (clawgate\'s: agents.*.tools.allow / deny)'),
      toolsBySender: refused('a per-sender tool policy; ignoring it could give senders tools it takes away (clawgate\'s: agents.*.tools.allow / deny)'),
    }),
  );
  const section = { ...lacking, groups, ...own };
  return { status: 'unsupported', chatChannel: true, provided: implemented({ ...section, accounts: implementedEach('map', implemented(section)) }) };
}

/** Space-separated names, each an unsupported key whose contents are not checked. */
export function unsupportedNames(names: string): Keys {
  return Object.fromEntries(
    names
      .split(/\s+/)
      .filter(Boolean)
      .map((name) => [name, unsupported()]),
  );
}

/**
 * The node for `segment` under `node`: a listed key, or the entry of a map / element of a list. A name is
 * looked up as an own key of the map only, so `constructor` or `__proto__` never match anything.
 */
export function childOf(node: OpenClawKey, segment: string | number): OpenClawKey | undefined {
  if (typeof segment === 'number') return node.each?.kind === 'list' ? node.each.node : undefined;
  if (node.each?.kind === 'map') return node.each.node;
  return node.keys?.get(segment);
}

/** The node at a document path (`['agents', 'list', 2, 'tools']`), if the data describes it. */
export function nodeAt(root: OpenClawKey, path: ReadonlyArray<string | number>): OpenClawKey | undefined {
  let node: OpenClawKey | undefined = root;
  for (const segment of path) {
    node = node && childOf(node, segment);
    if (!node) return undefined;
  }
  return node;
}
