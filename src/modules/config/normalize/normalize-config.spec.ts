import * as path from 'node:path';
import { QUOTE_LITERALLY } from '../pipeline/config-value-quoter';
import type { ConfigIssue } from '../pipeline/config-issue';
import { validateConfig } from '../pipeline/validate-config';
import { normalizeConfig } from './normalize-config';
import type { NormalizeContext } from './normalize-context';

const CONFIG_DIR = path.resolve('/etc/clawgate');
const HOME = path.resolve('/home/ada');

/** validate → normalize, the way loadConfig chains them; `tolerated` = secrets whose ${VAR} was unset. */
function normalize(doc: Record<string, unknown>, tolerated: string[] = []) {
  const unusable = new Set(tolerated);
  const validated = validateConfig(doc, unusable);
  if (!validated.config) throw new Error(`fixture is invalid: ${JSON.stringify(validated.errors)}`);
  const ctx: NormalizeContext = {
    configPath: path.join(CONFIG_DIR, 'openclaw.json'),
    stateDir: path.resolve('/var/lib/clawgate'),
    homeDir: HOME,
    env: {},
    unusableSecretPaths: unusable,
    quoter: QUOTE_LITERALLY,
    errors: [],
    warnings: [],
  };
  const config = normalizeConfig(ctx, validated.config);
  return { config, errors: ctx.errors, warnings: ctx.warnings };
}
const messages = (issues: ConfigIssue[]) => issues.map((i) => `${i.path}: ${i.message}`);

describe('normalizeConfig', () => {
  it('fills every documented default for an empty config', () => {
    const { config, errors, warnings } = normalize({});
    expect([...errors, ...warnings]).toEqual([]);
    expect(config.gateway).toEqual(
      expect.objectContaining({
        port: 18789,
        bind: '127.0.0.1',
        trustedProxies: [],
        reload: { mode: 'hybrid', debounceMs: 300 },
        metrics: { tokenRequired: false },
        state: { backend: 'sqlite' },
      }),
    );
    expect(config.gateway.admin.sso).toEqual(
      expect.objectContaining({
        enabled: false,
        userHeader: 'X-Forwarded-User',
        emailHeader: 'X-Forwarded-Email',
        groupsHeader: 'X-Forwarded-Groups',
        defaultRole: 'none',
      }),
    );
    expect(config.tools).toEqual({ agentToAgent: { enabled: false, allow: [] }, sessions: { visibility: 'tree' } });
    expect(config.session).toEqual({ dmScope: 'main', mainKey: 'main', agentToAgent: { maxPingPongTurns: 5, maxChainHops: 8, keptExchanges: 10_000 } });
    expect(config.memory).toEqual(
      expect.objectContaining({ backend: 'builtin', embeddings: expect.objectContaining({ provider: 'bundled' }) }),
    );
    expect(config.memory.qmd).toEqual({
      includeDefaultMemory: true,
      sessionsEnabled: false,
      paths: [],
      debounceMs: 1500,
      maxResults: 6,
      maxSnippetChars: 700,
      minScore: 0.4,
    });
    expect(config.channels.a2a).toEqual({
      enabled: false,
      advertisedUrl: undefined,
      replyTimeoutMs: 120000,
      inputTimeoutMs: 600000,
      rateLimitPerMinute: 30,
      keptTasksPerPeer: 500,
      exposeAgents: null,
      peers: {},
      files: { maxBytes: 1048576, mediaTypes: ['text/*', 'application/json'] },
    });
    expect(config.channels.http).toEqual({ enabled: false, accounts: {} });
    expect(config.bindings).toEqual([]);
    expect(config.agents.map((a) => a.id)).toEqual(['main']);
  });

  it('keeps explicit zeros and falses instead of replacing them with defaults', () => {
    const { config } = normalize({
      gateway: { port: 0, reload: { debounceMs: 0 } },
      session: { mainKey: 'Home', agentToAgent: { maxPingPongTurns: 0 } },
      channels: { a2a: { rateLimitPerMinute: 0 } },
      memory: { qmd: { includeDefaultMemory: false } },
    });
    expect(config.gateway.port).toBe(0);
    expect(config.gateway.reload.debounceMs).toBe(0);
    expect(config.session.agentToAgent.maxPingPongTurns).toBe(0);
    expect(config.channels.a2a.rateLimitPerMinute).toBe(0);
    expect(config.memory.qmd.includeDefaultMemory).toBe(false);
    // Session keys are lowercase (docs/sessions.md#session-keys), so the main key is too.
    expect(config.session.mainKey).toBe('home');
  });

  it('requires the metrics token once one is configured, also when its ${VAR} was unset (closed, never open)', () => {
    expect(normalize({ gateway: { metrics: {} } }).config.gateway.metrics).toEqual({ tokenRequired: false });
    expect(normalize({ gateway: { metrics: { token: 'scrape-token-0001' } } }).config.gateway.metrics).toEqual({
      tokenRequired: true,
      token: 'scrape-token-0001',
    });
    expect(normalize({ gateway: { metrics: {} } }, ['gateway.metrics.token']).config.gateway.metrics).toEqual({ tokenRequired: true });
  });

  describe('bindings', () => {
    const agents = { list: [{ id: 'Support' }, { id: 'expert' }] };

    it('normalizes agentId and keeps only the match fields that are set', () => {
      const { config, errors } = normalize({
        agents,
        bindings: [
          { agentId: 'SUPPORT', match: { channel: 'http', accountId: '*' } },
          { agentId: 'expert', match: { channel: 'a2a', peer: { kind: 'direct', id: 'hermes' }, guildId: 'g', teamId: 't' } },
        ],
      });
      expect(errors).toEqual([]);
      expect(config.bindings).toEqual([
        { index: 0, agentId: 'support', match: { channel: 'http', accountId: '*' } },
        { index: 1, agentId: 'expert', match: { channel: 'a2a', peer: { kind: 'direct', id: 'hermes' }, guildId: 'g', teamId: 't' } },
      ]);
    });

    it('rejects a binding to an unknown agent, with a suggestion', () => {
      const { errors } = normalize({ agents, bindings: [{ agentId: 'expret', match: { channel: 'http' } }] });
      expect(messages(errors)).toEqual(['bindings[0].agentId: unknown agent "expret" (did you mean "expert"?)']);
    });

    it('routes a binding to an agent that does not exist to the default agent, as OpenClaw does, with a warning', () => {
      const { config, errors, warnings } = normalize({ agents, bindings: [{ agentId: 'main', match: { channel: 'http' } }] });
      expect(errors).toEqual([]);
      expect(config.bindings).toEqual([{ index: 0, agentId: 'support', match: { channel: 'http' } }]);
      expect(messages(warnings)).toEqual([
        'bindings[0].agentId: no agent "main": the binding routes to the default agent "support", as OpenClaw routes it',
      ]);
    });

    it('applies the deprecated match.account as accountId, with a warning', () => {
      const { config, warnings } = normalize({ agents, bindings: [{ agentId: 'expert', match: { channel: 'http', account: 'dev' } }] });
      expect(config.bindings[0].match).toEqual({ channel: 'http', accountId: 'dev' });
      expect(messages(warnings)).toEqual(['bindings[0].match.account: is deprecated; use accountId (applied as accountId)']);
    });

    it('rejects account and accountId that disagree, accepts them when they agree', () => {
      const conflict = normalize({ agents, bindings: [{ agentId: 'expert', match: { channel: 'http', account: 'a', accountId: 'b' } }] });
      expect(messages(conflict.errors)).toEqual(['bindings[0].match.account: conflicts with accountId "b"; keep only accountId']);
      const same = normalize({ agents, bindings: [{ agentId: 'expert', match: { channel: 'http', account: 'a', accountId: 'a' } }] });
      expect(same.errors).toEqual([]);
      expect(same.config.bindings[0].match.accountId).toBe('a');
    });

    it('keeps bindings to channels without an adapter, with a warning; known channels are quiet', () => {
      const { config, warnings } = normalize({
        agents,
        bindings: [
          { agentId: 'expert', match: { channel: 'telegram' } },
          { agentId: 'expert', match: { channel: 'http' } },
          { agentId: 'expert', match: { channel: 'a2a' } },
        ],
      });
      expect(config.bindings.map((b) => b.match.channel)).toEqual(['telegram', 'http', 'a2a']);
      expect(messages(warnings)).toEqual([
        'bindings[0].match.channel: no adapter for channel "telegram" in this gateway; the binding is kept but receives nothing',
      ]);
    });
  });

  describe('tools', () => {
    it('warns about tool names this gateway does not implement, once per list where it is written', () => {
      const { warnings, config } = normalize({
        agents: {
          defaults: { tools: { deny: ['browser'] } },
          list: [{ id: 'a', tools: { allow: ['exec', 'sessions_send', 'exec'] } }, { id: 'b' }, { id: 'c' }],
        },
      });
      expect(messages(warnings)).toEqual([
        'agents.defaults.tools.deny: tools not provided by this gateway are ignored: "browser"',
        'agents.list[0].tools.allow: tools not provided by this gateway are ignored: "exec"',
      ]);
      expect(config.agents[1].tools.deny).toEqual(['browser']);
    });

    it('reports entries-form lists by their map path', () => {
      const { warnings } = normalize({ agents: { entries: { Ops: { tools: { allow: ['cron'] } } } } });
      expect(messages(warnings)).toEqual(['agents.entries.Ops.tools.allow: tools not provided by this gateway are ignored: "cron"']);
    });
  });

  describe('memory', () => {
    it('applies memory.qmd.indexSessions as sessions.enabled, with a deprecation warning', () => {
      const { config, warnings } = normalize({ memory: { qmd: { indexSessions: true } } });
      expect(config.memory.qmd.sessionsEnabled).toBe(true);
      expect(messages(warnings)).toEqual(['memory.qmd.indexSessions: is deprecated; use memory.qmd.sessions.enabled (applied)']);
    });

    it('rejects indexSessions that contradicts sessions.enabled', () => {
      const { errors } = normalize({ memory: { qmd: { indexSessions: true, sessions: { enabled: false } } } });
      expect(messages(errors)).toEqual([
        'memory.qmd.indexSessions: conflicts with memory.qmd.sessions.enabled; keep only sessions.enabled',
      ]);
    });

    it('needs a name for an absolute or ~ path in memory.qmd.paths', () => {
      const { errors, config } = normalize({
        memory: { qmd: { paths: [{ path: '~/notes' }, { path: 'docs' }, { path: '/srv/kb', name: 'kb' }] } },
      });
      expect(messages(errors)).toEqual(['memory.qmd.paths[0].name: is required because "~/notes" lies outside the agent workspaces']);
      expect(config.memory.qmd.paths).toEqual([
        { path: 'docs', name: 'docs' },
        { path: path.resolve('/srv/kb'), name: 'kb' },
      ]);
    });
  });

  describe('channels', () => {
    it('marks a peer whose token ${VAR} was unset as unusable and keeps the rest', () => {
      const { config, errors } = normalize(
        { channels: { a2a: { enabled: true, peers: { hermes: { url: 'https://h.example/a2a/v1' }, zeus: { token: 'z' } } } } },
        ['channels.a2a.peers.hermes.token'],
      );
      expect(errors).toEqual([]);
      expect(config.channels.a2a.peers.hermes).toEqual({
        name: 'hermes',
        token: undefined,
        url: 'https://h.example/a2a/v1',
        outboundToken: undefined,
        protocolVersion: '1.0',
        pushUrls: [],
        trustBudget: false,
        usable: false,
      });
      expect(config.channels.a2a.peers.zeus.usable).toBe(true);
    });

    it('keeps a peer’s pinned protocolVersion', () => {
      const { config } = normalize({ channels: { a2a: { peers: { old: { token: 'o', url: 'https://o.example/rpc', protocolVersion: '0.3' } } } } });
      expect(config.channels.a2a.peers.old.protocolVersion).toBe('0.3');
    });

    it('rejects two peers sharing one token (the caller identity would be ambiguous) without printing it', () => {
      const { errors } = normalize({
        channels: { a2a: { peers: { alpha: { token: 'shared-secret' }, beta: { token: 'own' }, gamma: { token: 'shared-secret' } } } },
      });
      expect(messages(errors)).toEqual([
        'channels.a2a.peers.gamma.token: is the same as the token of "alpha"; every caller needs its own token',
      ]);
      expect(JSON.stringify(errors)).not.toContain('shared-secret');
    });

    it('rejects two http accounts sharing one token', () => {
      const { errors } = normalize({ channels: { http: { accounts: { a: { token: 't' }, b: { token: 't' } } } } });
      expect(messages(errors)).toEqual([
        'channels.http.accounts.b.token: is the same as the token of "a"; every caller needs its own token',
      ]);
    });

    it('two peers whose variables are both unset do not count as sharing a token', () => {
      const { errors } = normalize({ channels: { a2a: { peers: { a: {}, b: {} } } } }, [
        'channels.a2a.peers.a.token',
        'channels.a2a.peers.b.token',
      ]);
      expect(errors).toEqual([]);
    });

    it('trims a trailing slash of advertisedUrl and normalizes exposeAgents, warning about unknown ids', () => {
      const { config, warnings } = normalize({
        agents: { list: [{ id: 'main' }] },
        channels: { a2a: { advertisedUrl: 'https://gw.example.com/', exposeAgents: ['Main', 'ghost'] } },
      });
      expect(config.channels.a2a.advertisedUrl).toBe('https://gw.example.com');
      expect(config.channels.a2a.exposeAgents).toEqual(['main', 'ghost']);
      expect(messages(warnings)).toEqual(['channels.a2a.exposeAgents[1]: unknown agent "ghost" is not published']);
    });

    it('an empty exposeAgents list means all agents, like an unset one', () => {
      expect(normalize({ channels: { a2a: { exposeAgents: [] } } }).config.channels.a2a.exposeAgents).toBeNull();
    });
  });
});
