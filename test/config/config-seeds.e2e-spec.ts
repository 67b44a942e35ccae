import { promises as fs, readdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LoadResult, RuntimeSnapshot } from '../../src/modules/config/config.types';
import type { ConfigIssue } from '../../src/modules/config/pipeline/config-issue';
import { loadConfig } from '../../src/modules/config/pipeline/load-config';

/**
 * Every config example of the two seed articles must load unchanged. The fixtures in
 * test/fixtures/seeds are verbatim copies (JSON5, comments and Chinese names included); this suite runs
 * each one through the real pipeline, from the file on disk to the runtime snapshot.
 * See docs/configuration.md#9-compatibility-aliases-and-warnings.
 */

const SEEDS = path.join(__dirname, '..', 'fixtures', 'seeds');
const SCENARIOS = {
  extraCollections: 'internals-8.3-extra-collections.json5',
  supportExpert: 'internals-9.1-support-expert.json5',
  pingPong: 'internals-9.2-ping-pong.json5',
  familyMemory: 'internals-9.3-family-memory.json5',
  sandbox: 'internals-9.4-sandbox.json5',
  fullStack: 'internals-9.5-full-stack.json5',
  a2aInbound: 'channel-a2a-inbound.json5',
  a2aOutbound: 'channel-a2a-outbound.json5',
} as const;
const MISSING_ANTHROPIC_KEY = 'no API key for provider anthropic: set ANTHROPIC_API_KEY or models.providers.anthropic.apiKey';

let tmp: string;
let home: string;
let stateDir: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-seeds-'));
  home = path.join(tmp, 'home');
  stateDir = path.join(tmp, 'state');
});
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));

/** An empty env by default: the seeds must load on a machine where none of their variables is set. */
function load(file: string, env: NodeJS.ProcessEnv = {}): Promise<LoadResult> {
  return loadConfig({ configPath: path.join(SEEDS, file), stateDir, homeDir: home, env });
}

async function loadOk(file: string, env: NodeJS.ProcessEnv = {}): Promise<RuntimeSnapshot> {
  const result = await load(file, env);
  // Printing the errors makes a failure here readable instead of "expected true, got false".
  if (!result.ok) throw new Error(`${file} did not load:\n${JSON.stringify(result.errors, null, 2)}`);
  return result.snapshot;
}

const warningAt = (warnings: ConfigIssue[], p: string) => warnings.filter((w) => w.path === p);

describe('seed configs', () => {
  const allFixtures = readdirSync(SEEDS).filter((f) => f.endsWith('.json5'));

  it('has a fixture for each of the eight required examples', () => {
    // A renamed or deleted fixture would otherwise silently shrink the table below.
    expect(allFixtures).toEqual(expect.arrayContaining(Object.values(SCENARIOS)));
  });

  it.each(allFixtures)('%s loads with no errors and nothing set in the environment', async (file) => {
    const result = await load(file);
    expect(result.ok ? [] : result.errors).toEqual([]);
    if (result.ok) expect(result.snapshot.revision).toMatch(/^[0-9a-f]{12}$/);
  });

  describe('channel article: channels.a2a', () => {
    it('inbound example: an unset ${A2A_HERMES_TOKEN} makes hermes unusable, with a warning naming it', async () => {
      const snap = await loadOk(SCENARIOS.a2aInbound);
      const hermes = snap.config.channels.a2a.peers.hermes;
      expect(hermes).toEqual(expect.objectContaining({ name: 'hermes', usable: false }));
      // Never the literal "${A2A_HERMES_TOKEN}": that would be a guessable credential.
      expect(hermes.token).toBeUndefined();
      expect(warningAt(snap.warnings, 'channels.a2a.peers.hermes.token')).toEqual([
        expect.objectContaining({ message: expect.stringContaining('A2A_HERMES_TOKEN') }),
      ]);
      expect(snap.config.channels.a2a).toEqual(expect.objectContaining({ enabled: true, advertisedUrl: 'https://openclaw.example.com' }));
    });

    it('outbound example: both unset variables are named, and neither value is used', async () => {
      const snap = await loadOk(SCENARIOS.a2aOutbound);
      const hermes = snap.config.channels.a2a.peers.hermes;
      expect(hermes.usable).toBe(false);
      expect(hermes.token).toBeUndefined();
      expect(hermes.outboundToken).toBeUndefined();
      expect(hermes.url).toBe('https://hermes.example.com/a2a/v1');
      const text = snap.warnings.map((w) => `${w.path}: ${w.message}`).join('\n');
      expect(text).toContain('channels.a2a.peers.hermes.token: environment variable A2A_HERMES_TOKEN');
      expect(text).toContain('channels.a2a.peers.hermes.outboundToken: environment variable A2A_HERMES_OUTBOUND_TOKEN');
    });

    it('with the variables set, hermes is usable and carries both tokens', async () => {
      const env = { A2A_HERMES_TOKEN: 'in-token-1', A2A_HERMES_OUTBOUND_TOKEN: 'out-token-2' };
      const inbound = await loadOk(SCENARIOS.a2aInbound, env);
      expect(inbound.config.channels.a2a.peers.hermes).toEqual(expect.objectContaining({ usable: true, token: 'in-token-1' }));
      expect(inbound.warnings).toEqual([]);

      const outbound = await loadOk(SCENARIOS.a2aOutbound, env);
      expect(outbound.config.channels.a2a.peers.hermes).toEqual({
        name: 'hermes',
        usable: true,
        token: 'in-token-1',
        url: 'https://hermes.example.com/a2a/v1',
        outboundToken: 'out-token-2',
        protocolVersion: '1.0',
        pushUrls: [],
        trustBudget: false,
      });
      expect(outbound.warnings).toEqual([]);
      // The document kept for openclaw.last-good.json still holds the references, not the values.
      expect(JSON.stringify(outbound.document)).not.toContain('in-token-1');
      expect(JSON.stringify(outbound.document)).toContain('${A2A_HERMES_TOKEN}');
    });
  });

  describe('internals article: scenarios 9.1–9.5 and §8.3', () => {
    it('9.1: support + expert, whatsapp binding kept with a warning, A2A policy as written', async () => {
      const snap = await loadOk(SCENARIOS.supportExpert);
      expect(snap.config.agents.map((a) => [a.id, a.name, a.model])).toEqual([
        ['support', '客服助手', 'anthropic/claude-sonnet-4-6'],
        ['expert', '技术专家', 'anthropic/claude-opus-4-6'],
      ]);
      expect(snap.config.agents[0].workspace).toBe(path.join(home, '.openclaw', 'workspace-support'));
      expect(snap.config.bindings).toEqual([{ index: 0, agentId: 'support', match: { channel: 'whatsapp' } }]);
      expect(warningAt(snap.warnings, 'bindings[0].match.channel')[0].message).toContain('"whatsapp"');
      expect(snap.config.tools).toEqual({
        agentToAgent: { enabled: true, allow: ['support', 'expert'] },
        sessions: { visibility: 'all' },
      });
      expect(snap.config.session.agentToAgent).toEqual({ maxPingPongTurns: 3, maxChainHops: 8, keptExchanges: 10_000 });
    });

    it('9.1/9.2: anthropic models without a key load, with the exact missing-key warning per agent', async () => {
      for (const file of [SCENARIOS.supportExpert, SCENARIOS.pingPong]) {
        const snap = await loadOk(file);
        for (const p of ['agents.list[0].model', 'agents.list[1].model']) {
          expect(warningAt(snap.warnings, p)).toEqual([
            expect.objectContaining({ message: expect.stringContaining(MISSING_ANTHROPIC_KEY) }),
          ]);
        }
      }
      const withKey = await loadOk(SCENARIOS.pingPong, { ANTHROPIC_API_KEY: 'sk-test' });
      expect(withKey.warnings).toEqual([]);
    });

    it('9.2: ping-pong limit 5 and no bindings: the first agent is the default', async () => {
      const snap = await loadOk(SCENARIOS.pingPong);
      expect(snap.config.session.agentToAgent.maxPingPongTurns).toBe(5);
      expect(snap.config.defaultAgentId).toBe('analyst');
      expect(snap.config.bindings).toEqual([]);
    });

    it('9.3: main may search family sessions (directional), paths under ~ expand to the home dir', async () => {
      const snap = await loadOk(SCENARIOS.familyMemory);
      const main = snap.agentsById.get('main')!;
      const family = snap.agentsById.get('family')!;
      expect(main.extraCollections).toEqual([
        { name: 'family-sessions', path: path.join(home, '.openclaw', 'agents', 'family', 'sessions') },
      ]);
      expect(family.extraCollections).toEqual([]);
      expect(family.workspace).toBe(path.join(home, '.openclaw', 'workspace-family'));
      expect(snap.config.memory.backend).toBe('qmd');
    });

    it('9.4: sandbox scope kept; unknown tools (exec, browser, ...) are warnings and stay in the lists', async () => {
      const snap = await loadOk(SCENARIOS.sandbox);
      const agent = snap.agentsById.get('sandbox-agent')!;
      expect(agent.sandbox).toEqual({ mode: 'all', scope: 'agent' });
      expect(agent.tools.allow).toEqual(['exec', 'read', 'sessions_list', 'sessions_send']);
      expect(agent.tools.deny).toEqual(['write', 'edit', 'browser', 'cron']);
      const allow = warningAt(snap.warnings, 'agents.list[0].tools.allow');
      const deny = warningAt(snap.warnings, 'agents.list[0].tools.deny');
      expect(allow).toHaveLength(1);
      expect(allow[0].message).toMatch(/"exec", "read"$/);
      expect(deny).toHaveLength(1);
      expect(deny[0].message).toContain('browser');
      // Tools this gateway implements are not reported.
      expect(allow[0].message).not.toContain('sessions_send');
    });

    it('9.5: deprecated aliases are applied with deprecation warnings; channels without adapters warn', async () => {
      const snap = await loadOk(SCENARIOS.fullStack);
      expect(warningAt(snap.warnings, 'bindings[1].match.account')).toEqual([
        expect.objectContaining({ message: expect.stringMatching(/deprecated.*accountId/) }),
      ]);
      expect(warningAt(snap.warnings, 'memory.qmd.indexSessions')).toEqual([
        expect.objectContaining({ message: expect.stringMatching(/deprecated.*sessions\.enabled/) }),
      ]);
      expect(snap.config.bindings[1]).toEqual({ index: 1, agentId: 'coding', match: { channel: 'telegram', accountId: 'dev' } });
      expect(snap.config.bindings[2].match).toEqual({ channel: 'whatsapp', peer: { kind: 'group', id: 'family-group' } });
      expect(snap.config.memory.qmd).toEqual(expect.objectContaining({ includeDefaultMemory: true, sessionsEnabled: true }));
      const channelWarnings = snap.warnings.filter((w) => w.path.endsWith('.match.channel'));
      expect(channelWarnings.map((w) => w.path)).toEqual([
        'bindings[0].match.channel',
        'bindings[1].match.channel',
        'bindings[2].match.channel',
      ]);
      expect(channelWarnings.map((w) => /"([^"]+)"/.exec(w.message)?.[1])).toEqual(['ddingtalk', 'telegram', 'whatsapp']);
      // All three bindings are kept even though nothing will arrive on those channels.
      expect(snap.config.bindings).toHaveLength(3);
    });

    it('9.5: defaults model inherited, entry model wins; main searches coding and family sessions', async () => {
      const snap = await loadOk(SCENARIOS.fullStack);
      expect(snap.config.agents.map((a) => [a.id, a.model])).toEqual([
        ['main', 'anthropic/claude-sonnet-4-6'],
        ['coding', 'anthropic/claude-opus-4-6'],
        ['family', 'anthropic/claude-sonnet-4-6'],
      ]);
      expect(snap.agentsById.get('main')!.extraCollections.map((c) => c.name)).toEqual(['coding-sessions', 'family-sessions']);
      expect(snap.agentsById.get('coding')!.extraCollections).toEqual([]);
    });

    it('§8.3: defaults grant family-sessions to every agent; a relative path inside the workspace needs no name', async () => {
      const snap = await loadOk(SCENARIOS.extraCollections);
      const main = snap.agentsById.get('main')!;
      const family = snap.agentsById.get('family')!;
      const shared = { name: 'family-sessions', path: path.join(home, 'agents', 'family', 'sessions') };
      expect(main.workspace).toBe(path.join(stateDir, 'workspace-main'));
      expect(main.extraCollections).toEqual([shared, { name: 'notes', path: path.join(main.workspace, 'notes') }]);
      expect(family.workspace).toBe(path.join(home, 'workspaces', 'family'));
      expect(family.extraCollections).toEqual([shared]);
      expect(snap.config.memory.qmd.includeDefaultMemory).toBe(false);
    });
  });
});
