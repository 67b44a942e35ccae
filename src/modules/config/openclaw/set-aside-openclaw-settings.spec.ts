import { formatConfigIssue } from '../pipeline/config-issue';
import { implemented, legacy, refused, unsupported, unsupportedNames } from './openclaw-key-tree';
import { setAsideOpenClawSettings } from './set-aside-openclaw-settings';
import { unsupportedSettingWarnings } from './unsupported-setting-warnings';

/** The warnings a document gets, the way the CLI prints them. */
const warningsOf = (doc: unknown) => unsupportedSettingWarnings(setAsideOpenClawSettings(doc).unsupported).map(formatConfigIssue);
const errorsOf = (doc: unknown) => setAsideOpenClawSettings(doc).errors.map(formatConfigIssue);

describe('setAsideOpenClawSettings (with the OpenClaw key data)', () => {
  it('takes the recognised settings out of the document, keeps what clawgate implements and leaves the input alone', () => {
    const doc = {
      meta: { lastTouchedVersion: '2026.4.1' },
      gateway: { port: 18789, controlUi: { enabled: true }, admin: { tokens: [] } },
      agents: { defaults: { model: 'echo/default', compaction: { mode: 'safeguard' } }, list: [{ id: 'main', subagents: { maxSpawnDepth: 2, allowAgents: ['*'] } }] },
    };
    const before = structuredClone(doc);
    const result = setAsideOpenClawSettings(doc);
    expect(result.document).toEqual({
      gateway: { port: 18789, admin: { tokens: [] } },
      agents: { defaults: { model: 'echo/default' }, list: [{ id: 'main', subagents: { maxSpawnDepth: 2 } }] },
    });
    expect(result.errors).toEqual([]);
    expect(doc).toEqual(before);
  });

  it('returns the very same document when there is nothing to set aside', () => {
    const doc = { gateway: { port: 1 }, agents: { list: [{ id: 'main' }] }, channels: { a2a: { enabled: true } } };
    expect(setAsideOpenClawSettings(doc).document).toBe(doc);
  });

  it('warns once per section with a count: whole sections under the root, the rest under their section', () => {
    const doc = {
      meta: {},
      gateway: { controlUi: { enabled: true }, tailscale: { mode: 'off' }, port: 1 },
      wizard: { lastRunAt: 'x' },
      agents: { defaults: { heartbeat: {} }, list: [{ id: 'a', subagents: { model: 'x/y' } }, { id: 'b', identity: { theme: 'calm' } }] },
      channels: { telegram: { enabled: true } },
    };
    expect(warningsOf(doc)).toEqual([
      'recognised OpenClaw settings, not supported by clawgate (2): meta, wizard',
      'gateway: recognised OpenClaw settings, not supported by clawgate (2): gateway.controlUi, gateway.tailscale',
      'agents: recognised OpenClaw settings, not supported by clawgate (3): agents.defaults.heartbeat, agents.list[0].subagents.model, agents.list[1].identity.theme',
    ]);
    // A chat channel is a plugin's: while none provides it, it is listed apart (load-config warns per channel).
    expect(setAsideOpenClawSettings(doc).unprovidedChannels).toEqual(['telegram']);
    expect(warningsOf({ plugins: { slots: {} } })).toEqual(['plugins: recognised OpenClaw setting, not supported by clawgate: plugins.slots']);
    expect(warningsOf({ gateway: { port: 1 } })).toEqual([]);
  });

  it('reports a key OpenClaw does not document inside a recognised section as an error with did-you-mean', () => {
    expect(errorsOf({ messages: { ackReactoinScope: 'all', queue: {} } })).toEqual([
      'messages.ackReactoinScope: unknown key (did you mean "ackReactionScope"?)',
    ]);
    expect(errorsOf({ commands: { zzzzzz: true } })).toEqual(['commands.zzzzzz: unknown key']);
    // The section is still recognised, so it is still set aside and reported.
    expect(warningsOf({ messages: { ackReactoinScope: 'all' } })).toEqual(['recognised OpenClaw setting, not supported by clawgate: messages']);
  });

  it('does not look inside settings whose contents OpenClaw or its plugins define', () => {
    const doc = {
      meta: { lastTouchedVersion: '1', migrations: ['x'] }, // written by OpenClaw itself
      env: { OPENROUTER_API_KEY: 'sk-or', vars: { GROQ_API_KEY: 'gsk' } },
      plugins: { entries: { 'voice-call': { config: { anything: { goes: 1 } } } } },
      channels: { discord: { guilds: { '123': { whatever: true } } } },
      gateway: { controlUi: { notAKeyOpenClawHas: 1 } },
    };
    expect(errorsOf(doc)).toEqual([]);
  });

  it('leaves keys OpenClaw does not know to the schema, inside the sections clawgate implements too', () => {
    const doc = { gateway: { prot: 1, contrlUi: {} }, agents: { defaults: { compactoin: {} } }, hoks: {} };
    const result = setAsideOpenClawSettings(doc);
    expect(result.document).toBe(doc);
    expect(result.unsupported).toEqual([]);
    expect(result.errors).toEqual([]);
  });

  it('keeps refused and legacy settings as errors that say why, and takes them out of what the schema sees', () => {
    const result = setAsideOpenClawSettings({
      gateway: { tls: { enabled: true }, port: 1 },
      tools: { byProvider: { anthropic: { profile: 'minimal' } }, agentToAgent: { enabled: true } },
      routing: { groupChat: {} },
      bindings: [{ agentId: 'main', match: { provider: 'whatsapp' } }],
    });
    expect(result.errors.map(formatConfigIssue)).toEqual([
      expect.stringMatching(/^tools\.byProvider: recognised OpenClaw setting, not supported by clawgate and not ignored: .*agents\.\*\.tools\.allow/),
      'routing: old OpenClaw setting, no longer accepted: moved to bindings, messages.groupChat, messages.queue and channels.whatsapp.allowFrom; `clawgate doctor --fix` moves it',
      'bindings[0].match.provider: old OpenClaw setting, no longer accepted: renamed to bindings[].match.channel',
    ]);
    expect(result.document).toEqual({
      gateway: { tls: { enabled: true }, port: 1 },
      tools: { agentToAgent: { enabled: true } },
      bindings: [{ agentId: 'main', match: {} }],
    });
    expect(result.unsupported).toEqual([]);
  });

  it('recognises a chat channel of OpenClaw\'s catalog, or of a plugin the same file names', () => {
    const channels = { dingtalk: { enabled: true }, htpp: {} };
    expect(setAsideOpenClawSettings({ channels }).unprovidedChannels).toEqual([]);
    expect(setAsideOpenClawSettings({ channels }).document).toEqual({ channels });
    const withPlugins = { channels, plugins: { entries: { dingtalk: { enabled: true } } } };
    expect(warningsOf(withPlugins)).toEqual([]);
    expect(setAsideOpenClawSettings(withPlugins).unprovidedChannels).toEqual(['dingtalk']);
    // htpp is nobody's channel: it stays for the schema to reject; the plugins section is clawgate's own now.
    expect(setAsideOpenClawSettings(withPlugins).document).toEqual({ channels: { htpp: {} }, plugins: withPlugins.plugins });
    expect(setAsideOpenClawSettings({ channels, plugins: { installs: { dingtalk: {} } } }).unprovidedChannels).toEqual(['dingtalk']);
    expect(setAsideOpenClawSettings({ channels, plugins: { allow: ['dingtalk'] } }).unprovidedChannels).toEqual(['dingtalk']);
    // wecom is in OpenClaw's channel catalog (an external plugin): recognised without plugins.
    expect(setAsideOpenClawSettings({ channels: { wecom: {} } }).document).toEqual({ channels: {} });
  });

  it('keeps a core channel for the schema when the file names the bundled plugin that serves it', () => {
    const doc = { channels: { a2a: { enabled: true }, http: {} }, plugins: { entries: { a2a: { enabled: false }, http: {} } } };
    const result = setAsideOpenClawSettings(doc);
    expect(result.unprovidedChannels).toEqual([]);
    expect(result.document).toEqual(doc);
  });

  it('leaves a channel a found plugin provides in place, for the plugin\'s schema to check', () => {
    const doc = { channels: { telegram: { botToken: '${T}' }, wecom: {} } };
    const result = setAsideOpenClawSettings(doc, undefined, new Set(['telegram']));
    expect(result.document).toEqual({ channels: { telegram: { botToken: '${T}' } } });
    expect(result.unprovidedChannels).toEqual(['wecom']);
  });

  it("sets aside the OpenClaw Discord keys the Discord plugin lacks, down inside guilds and their channels; a role allowlist stays an error", () => {
    const guild = { slug: 'team', requireMention: false, users: ['1'], channels: { help: { allow: true, skills: ['docs'], systemPrompt: 'x' } } };
    const doc = { channels: { discord: { token: '${D}', streaming: 'off', guilds: { '123': guild }, accounts: { work: { token: '${W}', guilds: { '9': { roles: ['r'] } } } } } } };
    const result = setAsideOpenClawSettings(doc, undefined, new Set(['discord']));
    expect(result.document).toEqual({
      channels: {
        discord: {
          token: '${D}',
          guilds: { '123': { requireMention: false, users: ['1'], channels: { help: { allow: true } } } },
          accounts: { work: { token: '${W}', guilds: { '9': {} } } },
        },
      },
    });
    expect(result.unsupported.map((p) => p.join('.'))).toEqual([
      'channels.discord.streaming',
      'channels.discord.guilds.123.slug',
      'channels.discord.guilds.123.channels.help.skills',
      'channels.discord.guilds.123.channels.help.systemPrompt',
    ]);
    expect(result.errors.map((e) => e.path)).toEqual(['channels.discord.accounts.work.guilds["9"].roles']);
  });

  it('never takes a built-in object property for a key', () => {
    const doc = JSON.parse('{"constructor": {}, "gateway": {"toString": 1}, "agents": {"list": [{"__proto__": {}}]}}') as unknown;
    const result = setAsideOpenClawSettings(doc);
    expect(result).toEqual({ document: doc, unsupported: [], unprovidedChannels: [], errors: [] });
  });
});

describe('setAsideOpenClawSettings (with a small tree)', () => {
  const tree = implemented({
    open: unsupported(),
    listed: unsupported(unsupportedNames('alpha beta')),
    written: unsupported(unsupportedNames('alpha'), { moreKeys: true }),
    nested: implemented({ inner: unsupported(), kept: implemented() }),
    no: refused('because'),
    old: legacy('moved to new'),
  });

  it('follows each mark of the data', () => {
    const result = setAsideOpenClawSettings(
      { open: { x: 1 }, listed: { alpah: 1 }, written: { gamma: 1 }, nested: { inner: 1, kept: 2, other: 3 }, no: 1, old: 1, own: 1 },
      tree,
    );
    expect(result.document).toEqual({ nested: { kept: 2, other: 3 }, own: 1 });
    expect(result.unsupported).toEqual([['open'], ['listed'], ['written'], ['nested', 'inner']]);
    expect(result.errors.map(formatConfigIssue)).toEqual([
      'listed.alpah: unknown key (did you mean "alpha"?)',
      'no: recognised OpenClaw setting, not supported by clawgate and not ignored: because',
      'old: old OpenClaw setting, no longer accepted: moved to new',
    ]);
  });

  it('in a section a bundled plugin provides, sets aside the OpenClaw keys the plugin lacks and leaves its own for its schema', () => {
    const doc = {
      channels: {
        telegram: {
          botToken: '${TELEGRAM_BOT_TOKEN}',
          streaming: 'partial',
          groups: { '-100': { requireMention: true, topics: { '1': {} } } },
          accounts: { work: { botToken: 'x', textChunkLimit: 3000 } },
        },
      },
    };
    const result = setAsideOpenClawSettings(doc, undefined, new Set(['telegram']));
    expect(result.document).toEqual({
      channels: { telegram: { botToken: '${TELEGRAM_BOT_TOKEN}', groups: { '-100': { requireMention: true } }, accounts: { work: { botToken: 'x' } } } },
    });
    expect(result.unsupported.map((p) => p.join('.'))).toEqual([
      'channels.telegram.streaming',
      'channels.telegram.groups.-100.topics',
      'channels.telegram.accounts.work.textChunkLimit',
    ]);
    // A group's sender list is the gateway's to apply; its tool policies, which clawgate would otherwise drop, stay errors.
    const group = { channels: { telegram: { groups: { '*': { allowFrom: ['1'], systemPrompt: 'brief', toolsBySender: { '*': {} } } } } } };
    const grouped = setAsideOpenClawSettings(group, undefined, new Set(['telegram']));
    expect(grouped.document).toEqual({ channels: { telegram: { groups: { '*': { allowFrom: ['1'] } } } } });
    expect(grouped.unsupported.map((p) => p.join('.'))).toEqual(['channels.telegram.groups.*.systemPrompt']);
    expect(grouped.errors.map(formatConfigIssue)).toEqual([
      expect.stringContaining('channels.telegram.groups["*"].toolsBySender: recognised OpenClaw setting, not supported by clawgate and not ignored'),
    ]);
  });
});
