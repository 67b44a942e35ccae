import { A2aPeerConfig } from '../schema/channels.schema';
import { ConfigIssue } from './config-issue';
import { validateConfig } from './validate-config';
import { KEPT_EXCHANGES_REFUSALS } from '../../../../test/support/kept-exchanges-refusals';
import { KEPT_TASKS_PER_PEER_REFUSALS } from '../../../../test/support/kept-tasks-refusals';

/** `path: message` lines, the way the CLI prints them; easier to read in a failing expectation. */
const lines = (issues: ConfigIssue[]) => issues.map((i) => `${i.path}: ${i.message}`);
const errorsOf = (doc: unknown) => lines(validateConfig(doc).errors);

describe('validateConfig', () => {
  it('accepts a config that uses every section and returns schema instances (maps as Map)', () => {
    const result = validateConfig({
      $schema: '../schemas/openclaw.schema.json',
      gateway: { port: 0, bind: '::1', trustedProxies: ['10.0.0.0/8', '::1'], reload: { mode: 'off', debounceMs: 0 } },
      agents: { defaults: { model: 'echo/default' }, list: [{ id: 'main', default: true, tools: { allow: ['exec'] } }] },
      bindings: [{ agentId: 'main', match: { channel: 'whatsapp', account: 'dev', peer: { kind: 'group', id: 'g' } } }],
      tools: { agentToAgent: { enabled: true, allow: ['*'] }, sessions: { visibility: 'all' } },
      session: { dmScope: 'per-account-channel-peer', agentToAgent: { maxPingPongTurns: 0, maxChainHops: 32 } },
      memory: { backend: 'qmd', qmd: { indexSessions: true, paths: [{ path: '/srv/notes', name: 'notes' }] } },
      models: { providers: { local: { api: 'openai-chat', baseUrl: 'http://localhost:8000/v1' } } },
      channels: { a2a: { enabled: true, replyTimeoutMs: 5000, peers: { 'peer.one_2-x': { token: 't' } } } },
    });
    expect(lines(result.errors)).toEqual([]);
    expect(result.config?.channels?.a2a?.peers).toBeInstanceOf(Map);
    expect(result.config?.channels?.a2a?.peers?.get('peer.one_2-x')).toBeInstanceOf(A2aPeerConfig);
  });

  it('rejects anything but an object at the root', () => {
    for (const doc of [[], 'x', 42, null]) {
      expect(errorsOf(doc)).toEqual([': the config must be a JSON5 object']);
    }
  });

  it('names the allowed values of an enum', () => {
    expect(errorsOf({ tools: { sessions: { visibility: 'everyone' } } })).toEqual([
      'tools.sessions.visibility: must be one of: self, tree, agent, all (got "everyone")',
    ]);
    expect(errorsOf({ session: { dmScope: 'per-user' } })).toEqual([
      'session.dmScope: must be one of: main, per-peer, per-channel-peer, per-account-channel-peer (got "per-user")',
    ]);
    expect(errorsOf({ bindings: [{ agentId: 'a', match: { channel: 'x', peer: { kind: 'dm', id: 'p' } } }] })).toEqual([
      'bindings[0].match.peer.kind: must be one of: direct, group, channel (got "dm")',
    ]);
    expect(errorsOf({ gateway: { reload: { mode: 'poll' } } })).toEqual(['gateway.reload.mode: must be one of: hybrid, off (got "poll")']);
    expect(errorsOf({ memory: { embeddings: { provider: 'static' } } })).toEqual([
      'memory.embeddings.provider: must be one of: bundled, bundled-static, openai, none (got "static")',
    ]);
    expect(errorsOf({ memory: { embeddings: { provider: 'bundled-static' } } })).toEqual([]);
  });

  it('names the A2A versions a peer can be pinned to, and that a version is a quoted string', () => {
    const peer = (protocolVersion: unknown) => errorsOf({ channels: { a2a: { peers: { iris: { token: 't', protocolVersion } } } } });
    expect(peer('2.0')).toEqual(['channels.a2a.peers.iris.protocolVersion: must be the string "1.0" or "0.3" (got "2.0")']);
    // What JSON5 makes of an unquoted 1.0.
    expect(peer(1)).toEqual(['channels.a2a.peers.iris.protocolVersion: must be the string "1.0" or "0.3" (got 1)']);
    expect(peer('0.3')).toEqual([]);
    expect(peer('1.0')).toEqual([]);
  });

  it('reports one message per field when the type is wrong, not every failed constraint', () => {
    const errors = validateConfig({
      channels: { a2a: { enabled: 'yes', replyTimeoutMs: 'slow', rateLimitPerMinute: 1.5, exposeAgents: 'main', advertisedUrl: 5 } },
      gateway: { port: [1] },
    }).errors;
    const paths = errors.map((e) => e.path);
    // replyTimeoutMs fails isInt, Min and Max; only the type is worth reading.
    expect(paths).toHaveLength(new Set(paths).size);
    expect(lines(errors).sort()).toEqual([
      'channels.a2a.advertisedUrl: must be a URL address (got 5)',
      'channels.a2a.enabled: must be a boolean value (got "yes")',
      'channels.a2a.exposeAgents: must be an array (got a string)',
      'channels.a2a.rateLimitPerMinute: must be an integer number (got 1.5)',
      'channels.a2a.replyTimeoutMs: must be an integer number (got "slow")',
      'gateway.port: must be an integer number (got an array)',
    ]);
  });

  it('reports range errors with the bound and the value', () => {
    expect(errorsOf({ channels: { a2a: { replyTimeoutMs: 4999 } } })).toEqual([
      'channels.a2a.replyTimeoutMs: must not be less than 5000 (got 4999)',
    ]);
    expect(errorsOf({ channels: { a2a: { replyTimeoutMs: 600001 } } })).toEqual([
      'channels.a2a.replyTimeoutMs: must not be greater than 600000 (got 600001)',
    ]);
    expect(errorsOf({ channels: { a2a: { inputTimeoutMs: 999 } } })).toEqual([
      'channels.a2a.inputTimeoutMs: must not be less than 1000 (got 999)',
    ]);
    expect(errorsOf({ channels: { a2a: { inputTimeoutMs: 1800001 } } })).toEqual([
      'channels.a2a.inputTimeoutMs: must not be greater than 1800000 (got 1800001)',
    ]);
    expect(errorsOf({ session: { agentToAgent: { maxPingPongTurns: 6, maxChainHops: 0 } } })).toEqual([
      'session.agentToAgent.maxPingPongTurns: must not be greater than 5 (got 6)',
      'session.agentToAgent.maxChainHops: must not be less than 1 (got 0)',
    ]);
  });

  it.each(KEPT_TASKS_PER_PEER_REFUSALS)('rejects channels.a2a.keptTasksPerPeer %j, naming the key', (value, message) => {
    expect(errorsOf({ channels: { a2a: { keptTasksPerPeer: value } } })).toEqual([`channels.a2a.keptTasksPerPeer: ${message}`]);
  });

  it('accepts channels.a2a.keptTasksPerPeer from 1 to 1,000,000', () => {
    for (const value of [1, 500, 1_000_000]) expect(errorsOf({ channels: { a2a: { keptTasksPerPeer: value } } })).toEqual([]);
  });

  it.each(KEPT_EXCHANGES_REFUSALS)('rejects session.agentToAgent.keptExchanges %j, naming the key', (value, message) => {
    expect(errorsOf({ session: { agentToAgent: { keptExchanges: value } } })).toEqual([`session.agentToAgent.keptExchanges: ${message}`]);
  });

  it('accepts session.agentToAgent.keptExchanges from 1 to 1,000,000', () => {
    for (const value of [1, 10_000, 1_000_000]) expect(errorsOf({ session: { agentToAgent: { keptExchanges: value } } })).toEqual([]);
  });

  it('says which required field is missing', () => {
    expect(errorsOf({ bindings: [{ agentId: 'a' }] })).toEqual(['bindings[0].match: is required']);
    expect(errorsOf({ bindings: [{ agentId: 'a', match: {} }] })).toEqual(['bindings[0].match.channel: is required']);
    expect(errorsOf({ agents: { list: [{ name: 'no id' }] } })).toEqual(['agents.list[0].id: is required']);
  });

  it('checks container types before anything else can misread them', () => {
    expect(errorsOf({ bindings: { agentId: 'a' } })).toEqual(['bindings: must be an array, got an object']);
    expect(errorsOf({ channels: { a2a: { peers: 'hermes' } } })).toEqual(['channels.a2a.peers: must be an object, got a string']);
    // An object where an array of objects belongs must not slip through to normalization.
    expect(errorsOf({ agents: { list: [{ id: 'a', memorySearch: { qmd: { extraCollections: { path: 'x' } } } }] } })).toEqual([
      'agents.list[0].memorySearch.qmd.extraCollections: must be an array (got an object)',
    ]);
    expect(errorsOf({ agents: { list: ['main'] } })).toEqual(['agents.list[0]: must be an object (got a string)']);
  });

  it('rejects an array where an object belongs, at any level (the validators would look inside it)', () => {
    const got = 'must be an object (got an array)';
    expect(errorsOf({ tools: { sessions: [{ visibility: 'all' }] } })).toEqual([`tools.sessions: ${got}`]);
    expect(errorsOf({ gateway: { reload: [], admin: { sso: { jwt: [] } } } })).toEqual([`gateway.reload: ${got}`, `gateway.admin.sso.jwt: ${got}`]);
    expect(errorsOf({ agents: { list: [{ id: 'a' }, [{ id: 'b' }]] } })).toEqual([`agents.list[1]: ${got}`]);
    expect(errorsOf({ bindings: [[{ agentId: 'main', match: { channel: 'http' } }]] })).toEqual([`bindings[0]: ${got}`]);
    expect(errorsOf({ agents: { list: [{ id: 'a', memorySearch: { qmd: { extraCollections: [[]] } } }] } })).toEqual([
      `agents.list[0].memorySearch.qmd.extraCollections[0]: ${got}`,
    ]);
    expect(errorsOf({ agents: { entries: { x: [] } }, channels: { a2a: { peers: { p: [{ token: 't' }] } } } })).toEqual([
      `agents.entries.x: ${got}`,
      `channels.a2a.peers.p: ${got}`,
    ]);
    expect(errorsOf({ memory: { qmd: { paths: [[{ path: 'x' }]] } } })).toEqual([`memory.qmd.paths[0]: ${got}`]);
  });

  describe('CIDR lists', () => {
    it('lists every entry that is not an address or block, and only those', () => {
      const errors = errorsOf({
        gateway: { trustedProxies: ['10.0.0.0/8', '10.0.0.0/33', 'proxy.local', '::1', 'fd00::/129', '1.2.3.4/8/1', '192.168.1.1'] },
      });
      expect(errors).toEqual([
        'gateway.trustedProxies: "10.0.0.0/33", "proxy.local", "fd00::/129", "1.2.3.4/8/1": not an IP address or CIDR block (e.g. 10.0.0.0/8, ::1)',
      ]);
    });

    it('checks the SSO proxy list the same way and rejects an invalid IPv4 octet', () => {
      expect(errorsOf({ gateway: { admin: { sso: { trustedProxies: ['300.0.0.1'] } } } })).toEqual([
        'gateway.admin.sso.trustedProxies: "300.0.0.1": not an IP address or CIDR block (e.g. 10.0.0.0/8, ::1)',
      ]);
    });
  });

  describe('secrets', () => {
    const SECRET = 'sk-live-DO-NOT-PRINT-0123456789';

    it('never echoes a secret value, whatever is wrong around it', () => {
      const docs: unknown[] = [
        // wrong type, too short, written one level too high, inside arrays, under a misspelled key
        { channels: { a2a: { peers: { hermes: SECRET } } } },
        { channels: { a2a: { peers: { hermes: { token: [SECRET] } } } } },
        { channels: { a2a: { peers: { hermes: { token: 'x', outboundToken: { value: SECRET } } } } } },
        { channels: { a2a: { peers: { hermes: { tokne: SECRET } } } } },
        { channels: { http: { accounts: { a: SECRET } } } },
        { gateway: { admin: { tokens: SECRET } } },
        { gateway: { admin: { tokens: [SECRET] } } },
        { gateway: { admin: { tokens: [{ name: 'ops', token: [SECRET], role: 'admin' }] } } },
        { models: { providers: { openai: { apiKey: [SECRET] } } } },
        { models: { providers: { openai: { headers: { Authorization: [SECRET] } } } } },
        { memory: { embeddings: { apiKey: { SECRET } } } },
      ];
      for (const doc of docs) {
        const errors = validateConfig(doc).errors;
        // Each case is invalid; an empty list would make the "not contain" check meaningless.
        expect(errors.length).toBeGreaterThan(0);
        expect(JSON.stringify(errors)).not.toContain(SECRET);
      }
    });

    it('never quotes a header map written as a string (it is usually the header value itself)', () => {
      expect(errorsOf({ models: { providers: { openai: { headers: `Bearer ${SECRET}` } } } })).toEqual([
        'models.providers.openai.headers: must be an object',
      ]);
    });

    it('still says what is wrong with a secret field', () => {
      expect(errorsOf({ channels: { a2a: { peers: { hermes: { token: '' } } } } })).toEqual([
        'channels.a2a.peers.hermes.token: must be longer than or equal to 1 characters',
      ]);
      expect(errorsOf({ channels: { a2a: { peers: { hermes: SECRET } } } })).toEqual([
        'channels.a2a.peers.hermes: must be an object (got a string)',
      ]);
    });
  });

  describe('URLs with credentials', () => {
    const PASSWORD = 'url-pass-DO-NOT-PRINT';
    const withCredentials = `http://svc:${PASSWORD}@svc.internal:8080/path`;

    it('are refused at every URL field, naming where the credential belongs, without quoting the URL', () => {
      const cases: Array<[unknown, string]> = [
        [{ channels: { a2a: { peers: { p: { token: 't', url: withCredentials } } } } }, 'channels.a2a.peers.p.url: must not contain credentials (user:password@); put the token we present in outboundToken'],
        [{ channels: { a2a: { advertisedUrl: withCredentials } } }, 'channels.a2a.advertisedUrl: must not contain credentials (user:password@); it is published in the Agent Card'],
        [{ channels: { http: { accounts: { desk: { token: 't', webhookUrl: withCredentials } } } } }, 'channels.http.accounts.desk.webhookUrl: must not contain credentials (user:password@); deliveries are signed with the account token (X-Clawgate-Signature); the receiver checks the signature'],
        [{ models: { providers: { local: { api: 'openai-chat', baseUrl: withCredentials } } } }, 'models.providers.local.baseUrl: must not contain credentials (user:password@); put the key in apiKey or an Authorization header in headers'],
        [{ memory: { embeddings: { provider: 'openai', baseUrl: withCredentials } } }, 'memory.embeddings.baseUrl: must not contain credentials (user:password@); put the key in apiKey'],
        [{ gateway: { publicUrl: withCredentials } }, 'gateway.publicUrl: must not contain credentials (user:password@); it is the origin shown to clients'],
        [{ gateway: { admin: { sso: { jwt: { jwksUrl: withCredentials } } } } }, 'gateway.admin.sso.jwt.jwksUrl: must not contain credentials (user:password@); the key set is public and fetched without credentials'],
      ];
      for (const [doc, message] of cases) expect(errorsOf(doc)).toEqual([message]);
    });

    it('count a user name alone, and leave an @ in the path or query alone', () => {
      expect(errorsOf({ gateway: { publicUrl: 'https://admin@claw.example' } })).toHaveLength(1);
      expect(errorsOf({ gateway: { publicUrl: 'https://claw.example/@team?by=a@b' } })).toEqual([]);
    });

    it('are masked where an invalid URL is quoted', () => {
      expect(errorsOf({ gateway: { publicUrl: `http://svc:${PASSWORD}@bad host/` } })).toEqual([
        'gateway.publicUrl: must be a URL address (got "http://***@bad host/")',
      ]);
    });
  });

  describe('memory settings', () => {
    it.each<[string, unknown, string]>([
      ['no worker at all', { workers: 0 }, 'memory.embeddings.workers: must not be less than 1 (got 0)'],
      ['more workers than allowed', { workers: 9 }, 'memory.embeddings.workers: must not be greater than 8 (got 9)'],
      ['a worker count that is not a whole number', { workers: 1.5 }, 'memory.embeddings.workers: must be an integer number (got 1.5)'],
      ['a worker count as text', { workers: 'two' }, 'memory.embeddings.workers: must be an integer number (got "two")'],
    ])('refuse %s', (_name, embeddings, message) => {
      expect(errorsOf({ memory: { embeddings } })).toEqual([message]);
    });

    it.each<[unknown, string]>([
      [-0.1, 'memory.qmd.limits.minScore: must not be less than 0 (got -0.1)'],
      [1.5, 'memory.qmd.limits.minScore: must not be greater than 1 (got 1.5)'],
      ['high', 'memory.qmd.limits.minScore: must be a number (got "high")'],
    ])('refuse minScore %p', (minScore, message) => {
      expect(errorsOf({ memory: { qmd: { limits: { minScore } } } })).toEqual([message]);
    });

    it('accept 1 to 8 embedding workers', () => {
      expect(errorsOf({ memory: { embeddings: { workers: 1 } } })).toEqual([]);
      expect(errorsOf({ memory: { embeddings: { provider: 'bundled', workers: 8 } } })).toEqual([]);
      expect(errorsOf({ memory: { qmd: { limits: { minScore: 0 } } } })).toEqual([]);
    });
  });

  describe('A2A file policy (channels.a2a.files)', () => {
    const filesErrors = (files: unknown) => errorsOf({ channels: { a2a: { files } } });

    it('accepts byte counts 0..16 MiB and media ranges in any case', () => {
      expect(filesErrors({ maxBytes: 0, mediaTypes: ['*/*', 'Image/PNG', 'text/*', 'application/vnd.api+json'] })).toEqual([]);
      expect(filesErrors({ maxBytes: 16 * 1024 * 1024, mediaTypes: [] })).toEqual([]);
    });

    it.each<[string, unknown, string]>([
      ['a negative maxBytes', { maxBytes: -1 }, 'channels.a2a.files.maxBytes: must not be less than 0 (got -1)'],
      ['a fractional maxBytes', { maxBytes: 1.5 }, 'channels.a2a.files.maxBytes: must be an integer number (got 1.5)'],
      ['a maxBytes over 16 MiB', { maxBytes: 16 * 1024 * 1024 + 1 }, 'channels.a2a.files.maxBytes: must not be greater than 16777216 (got 16777217)'],
      ['mediaTypes that is not an array', { mediaTypes: 'text/plain' }, 'channels.a2a.files.mediaTypes: must be an array (got a string)'],
      ['a media type list holding a number', { mediaTypes: ['text/plain', 5] }, 'channels.a2a.files.mediaTypes: each value in mediaTypes must be a string'],
      [
        'entries that are not media ranges',
        { mediaTypes: ['text/plain', 'image', '*/png', 'text/*; q=1'] },
        'channels.a2a.files.mediaTypes: each entry must be a media type such as "text/plain", "text/*" or "*/*" (not "image", "*/png", "text/*; q=1")',
      ],
      ['a misspelt key', { maxbytes: 1 }, 'channels.a2a.files.maxbytes: unknown key (did you mean "maxBytes"?)'],
      ['files that is not an object', 'all', 'channels.a2a.files: must be an object (got a string)'],
    ])('refuses %s, naming it', (_what, files, message) => {
      expect(filesErrors(files)).toEqual([message]);
    });
  });

  it('names each push URL pattern it refuses, quoted, with its credentials masked, and why', () => {
    const pushUrls = ['https://ok.example/*', 'ftp://files.example/*', 'https://svc:pw@hooks.example/*', 'https://*/*', ''];
    expect(errorsOf({ channels: { a2a: { peers: { p: { token: 'peer-token-0123456789', pushUrls } } } } })).toEqual([
      'channels.a2a.peers.p.pushUrls: each entry must be an http(s) URL pattern such as "https://hooks.example.com/a2a/*": ' +
        '"ftp://files.example/*" must start with http:// or https:// followed by a host; ' +
        '"https://***@hooks.example/*" must not carry credentials; ' +
        '"https://*/*" must name a domain as its host, not only a wildcard (e.g. https://*.example.com/*); ' +
        '"" is not a non-empty string',
    ]);
  });

  it('refuses an agent description that is empty, over 1000 characters or not a string', () => {
    expect(errorsOf({ agents: { list: [{ id: 'a', description: '' }, { id: 'b', description: 7 }] } })).toEqual([
      'agents.list[0].description: must be longer than or equal to 1 characters (got "")',
      'agents.list[1].description: must be a string (got 7)',
    ]);
    expect(errorsOf({ agents: { entries: { c: { description: 'x'.repeat(1001) } } } })[0]).toMatch(
      /^agents\.entries\.c\.description: must be shorter than or equal to 1000 characters/,
    );
  });

  it('tolerates a missing secret the substitution step already reported, and nothing else', () => {
    const doc = { channels: { a2a: { peers: { hermes: {} } } } };
    expect(errorsOf(doc)).toEqual(['channels.a2a.peers.hermes.token: is required']);
    expect(validateConfig(doc, new Set(['channels.a2a.peers.hermes.token'])).errors).toEqual([]);
    expect(
      lines(
        validateConfig({ channels: { a2a: { peers: { hermes: {}, other: {} } } } }, new Set(['channels.a2a.peers.hermes.token'])).errors,
      ),
    ).toEqual(['channels.a2a.peers.other.token: is required']);
  });
});
