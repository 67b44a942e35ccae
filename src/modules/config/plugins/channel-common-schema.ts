import { isRecord } from '../../../common/is-record';

/**
 * The keys every chat channel's `channels.<id>` section shares, whatever the plugin (docs/plugins.md#channels,
 * docs/channels.md#who-may-talk-to-an-agent), with OpenClaw's names: the gateway, not the plugin, applies them to
 * each inbound message. One fragment, merged by the host into every channel schema a manifest declares (at the
 * section and in each `accounts.<accountId>` entry), so a plugin's schema declares only its own keys (credentials,
 * API base URL, ...) and every channel spells and checks these the same way. A key the plugin's schema declares
 * itself keeps the plugin's definition.
 */
const ACCESS_PROPERTIES: Record<string, Record<string, unknown>> = {
  dmPolicy: {
    enum: ['pairing', 'allowlist', 'open', 'disabled'],
    description:
      'Who may talk to the agent in a direct chat: pairing (default: an unknown sender gets a one-time code to be approved), allowlist (only allowFrom), open (anyone; requires allowFrom: ["*"]), disabled.',
  },
  allowFrom: {
    type: 'array',
    items: { type: ['string', 'number'] },
    description: 'Senders (platform ids or usernames) allowed in direct chats; "*" = anyone.',
  },
  groupPolicy: {
    enum: ['allowlist', 'open', 'disabled'],
    description: 'Group chats: allowlist (default: only the groups under `groups`, or senders of groupAllowFrom), open (any group), disabled.',
  },
  groupAllowFrom: {
    type: 'array',
    items: { type: ['string', 'number'] },
    description: 'Senders allowed to trigger the agent in groups; "*" = anyone.',
  },
  groups: {
    type: 'object',
    description: 'Allowed groups by id ("*" = every group), each with its settings.',
    additionalProperties: {
      type: 'object',
      additionalProperties: false,
      properties: {
        requireMention: { type: 'boolean', description: 'Answer only when the bot is mentioned [true].' },
        enabled: { type: 'boolean', description: 'false: this group is ignored.' },
        allowFrom: {
          type: 'array',
          items: { type: ['string', 'number'] },
          description: 'Senders (platform ids or usernames) allowed to trigger the agent in this group, in place of groupAllowFrom; "*" = anyone, [] = nobody.',
        },
      },
    },
  },
  allowBots: { type: 'boolean', description: "Answer other bots' messages [false]; the bot's own messages are always ignored." },
  mediaMaxMb: {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: 2048,
    description:
      'The largest file (photo, document) a message may bring, in MB [20]: a larger one is not downloaded, and the sender is told the limit.',
  },
};

const ACCOUNT_PROPERTIES: Record<string, Record<string, unknown>> = {
  enabled: { type: 'boolean', description: 'false: this account is not started.' },
  name: { type: 'string', description: 'A display name for the account.' },
  ...ACCESS_PROPERTIES,
};

export const CHANNEL_COMMON_PROPERTIES: Record<string, Record<string, unknown>> = {
  enabled: { type: 'boolean', description: 'false: the channel is configured but not started [true].' },
  ...ACCESS_PROPERTIES,
  accounts: {
    type: 'object',
    description: 'Several bots of one platform, by account id; each may override the access keys of the section.',
    additionalProperties: { type: 'object', properties: ACCOUNT_PROPERTIES },
  },
};

/** A channel schema with the common keys merged in (those it does not declare itself); other schemas as they are. */
export function withChannelCommonKeys(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = isRecord(schema.properties) ? schema.properties : undefined;
  if (schema.type !== 'object' && !properties) return schema;
  const merged: Record<string, unknown> = { ...CHANNEL_COMMON_PROPERTIES, ...(properties ?? {}) };
  const strict = schema.additionalProperties === false;
  const accounts = properties?.accounts;
  if (accounts === undefined) {
    merged.accounts = {
      ...CHANNEL_COMMON_PROPERTIES.accounts,
      additionalProperties: { type: 'object', properties: ACCOUNT_PROPERTIES, ...(strict ? { additionalProperties: false } : {}) },
    };
  } else if (isRecord(accounts) && isRecord(accounts.additionalProperties) && isRecord(accounts.additionalProperties.properties)) {
    const entry = accounts.additionalProperties;
    merged.accounts = {
      ...accounts,
      additionalProperties: { ...entry, properties: { ...ACCOUNT_PROPERTIES, ...(entry.properties as Record<string, unknown>) } },
    };
  }
  return { ...schema, properties: merged };
}

/** The `dmPolicy: "open"` rule the schema cannot say clearly: open to anyone only when `allowFrom` says `"*"`. */
export function channelAccessProblems(section: unknown): Array<{ path: string[]; message: string }> {
  if (!isRecord(section)) return [];
  const problems: Array<{ path: string[]; message: string }> = [];
  const check = (at: string[], dmPolicy: unknown, allowFrom: unknown) => {
    if (dmPolicy !== 'open') return;
    if (Array.isArray(allowFrom) && allowFrom.includes('*')) return;
    problems.push({
      path: [...at, 'allowFrom'],
      message: `dmPolicy "open" requires allowFrom: ["*"] (anyone may talk to the agent: say so explicitly), or use dmPolicy "pairing" or "allowlist"`,
    });
  };
  check([], section.dmPolicy, section.allowFrom);
  if (isRecord(section.accounts)) {
    for (const [id, account] of Object.entries(section.accounts)) {
      if (!isRecord(account)) continue;
      const dmPolicy = account.dmPolicy ?? section.dmPolicy;
      const allowFrom = account.allowFrom ?? section.allowFrom;
      if (account.dmPolicy !== undefined || account.allowFrom !== undefined) check(['accounts', id], dmPolicy, allowFrom);
    }
  }
  return problems;
}
