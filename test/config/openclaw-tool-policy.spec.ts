// OpenClaw tool profiles, groups and top-level lists, resolved by the config module and read by the runtime's isToolAllowed.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isToolAllowed } from '../../src/modules/runtime/tool-registry';
import { toolPolicyForSession } from '../../src/modules/runtime/session-tool-policy';
import { BUILT_IN_TOOL_NAMES } from '../../src/common/built-in-tools';
import { loadConfig } from '../../src/modules/config/pipeline/load-config';
import { formatConfigIssue } from '../../src/modules/config/pipeline/config-issue';

let dir: string;
beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tool-policy-'))));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The whole pipeline; returns, per agent, the built-in tools it may call. */
async function load(text: string) {
  const result = await loadConfig({
    configPath: path.join(dir, 'openclaw.json'),
    stateDir: path.join(dir, 'state'),
    homeDir: dir,
    env: {},
    rootText: text,
  });
  const warnings = result.warnings.map(formatConfigIssue);
  if (!result.ok) return { errors: result.errors.map(formatConfigIssue), warnings, tools: {} as Record<string, string[]> };
  const allowed = (agent: (typeof result.snapshot.config.agents)[number]) => BUILT_IN_TOOL_NAMES.filter((t) => isToolAllowed(agent, t));
  const tools = Object.fromEntries(result.snapshot.config.agents.map((a) => [a.id, allowed(a)]));
  return { errors: [], warnings, tools, config: result.snapshot.config };
}

/** The built-in tools a run in `sessionKey` is offered. */
function inSession(config: NonNullable<Awaited<ReturnType<typeof load>>['config']>, sessionKey: string): string[] {
  const agent = config.agents.find((a) => sessionKey.startsWith(`agent:${a.id}:`))!;
  const tools = toolPolicyForSession(agent, sessionKey, config.session.mainKey);
  return BUILT_IN_TOOL_NAMES.filter((t) => isToolAllowed({ tools }, t));
}

describe("OpenClaw's tool policy", () => {
  it('profiles: minimal gives session_status, messaging the session tools and request_input; full or none everything', async () => {
    const r = await load(`{
      tools: { profile: "messaging" },
      agents: { list: [{ id: "main" }, { id: "min", tools: { profile: "minimal" } }, { id: "all", tools: { profile: "full" } }] },
    }`);
    expect(r.errors).toEqual([]);
    expect(r.tools.min).toEqual(['session_status']);
    expect(r.tools.main).toEqual([
      'sessions_list',
      'sessions_history',
      'session_status',
      'sessions_send',
      'sessions_spawn',
      'subagents',
      'sessions_yield',
      'request_input',
    ]);
    expect(r.tools.all).toEqual([...BUILT_IN_TOOL_NAMES]);
    expect(r.warnings).toContainEqual(
      expect.stringMatching(
        /^tools\.profile: "messaging" gives .* of this gateway; \d+ of its tools are not provided by clawgate \(message/,
      ),
    );
  });

  it('alsoAllow adds to the profile; top-level and agent allow/deny only narrow; groups and patterns expand', async () => {
    const r = await load(`{
      tools: { profile: "coding", alsoAllow: ["a2a_send"], deny: ["group:memory"] },
      agents: { list: [
        { id: "main" },
        { id: "narrow", tools: { allow: ["sessions_*", "memory_get"], deny: ["SESSIONS_SEND"] } },
      ] },
    }`);
    expect(r.errors).toEqual([]);
    expect(r.tools.main).toEqual([
      'sessions_list',
      'sessions_history',
      'session_status',
      'sessions_send',
      'sessions_spawn',
      'subagents',
      'sessions_yield',
      'a2a_send',
      'request_input',
    ]);
    expect(r.tools.narrow).toEqual(['sessions_list', 'sessions_history', 'sessions_spawn', 'sessions_yield']);
  });

  it('an allow list of tools clawgate lacks leaves the agent no tool (never all of them), with a warning', async () => {
    const r = await load('{ tools: { allow: ["browser", "exec"] }, agents: { list: [{ id: "main" }] } }');
    expect(r.tools.main).toEqual([]);
    expect(r.warnings).toContain('tools.allow: tools not provided by this gateway are ignored: "browser", "exec"');
  });

  it('refuses an unknown group with did-you-mean, allow beside alsoAllow, and an unknown profile', async () => {
    expect((await load('{ tools: { deny: ["group:memroy"] } }')).errors).toEqual([
      'tools.deny[0]: unknown tool group "group:memroy" (did you mean "group:memory"?)',
    ]);
    expect(
      (await load('{ agents: { list: [{ id: "a", tools: { allow: ["sessions_list"], alsoAllow: ["a2a_send"] } }] } }')).errors,
    ).toEqual([
      'agents.list[0].tools.alsoAllow: cannot be set together with agents.list[0].tools.allow: merge its entries into allow, or drop allow and use profile + alsoAllow',
    ]);
    expect((await load('{ tools: { profile: "codng" } }')).errors).toEqual([
      expect.stringMatching(/^tools\.profile: must be one of: minimal, coding, messaging, full \(got "codng"\)/),
    ]);
  });

  it('leaves a file without OpenClaw policy as it was: agent lists as written', async () => {
    const r = await load('{ agents: { list: [{ id: "main", tools: { allow: ["sessions_list"], deny: [] } }] } }');
    expect(r.tools.main).toEqual(['sessions_list']);
  });

  describe('per-session levels: tools.sandbox.tools and tools.subagents.tools narrow sandboxed and spawned sessions', () => {
    const SUB = 'agent:main:subagent:7d0f6c1e-1b1e-4d8e-9a55-1a2b3c4d5e6f';

    it('a sandboxed session gets the sandbox level, the main one the agent\'s tools, a spawned one both levels', async () => {
      const r = await load(`{
        agents: { defaults: { sandbox: { mode: "non-main" } }, list: [{ id: "main", tools: { deny: ["a2a_send"] } }] },
        tools: {
          sandbox: { tools: { allow: ["group:sessions", "memory_search"], deny: ["sessions_send"] } },
          subagents: { tools: { deny: ["sessions_spawn"] } },
        },
      }`);
      expect(r.errors).toEqual([]);
      const config = r.config!;
      const agentTools = BUILT_IN_TOOL_NAMES.filter((t) => t !== 'a2a_send');
      expect(inSession(config, 'agent:main:main')).toEqual(agentTools);
      expect(inSession(config, 'agent:main:direct:+15550001')).toEqual([
        'sessions_list',
        'sessions_history',
        'session_status',
        'sessions_spawn',
        'subagents',
        'sessions_yield',
        'memory_search',
      ]);
      // Spawned and (non-main) sandboxed: both levels.
      expect(inSession(config, SUB)).toEqual([
        'sessions_list',
        'sessions_history',
        'session_status',
        'subagents',
        'sessions_yield',
        'memory_search',
      ]);
      // A level never gives back what the agent's own policy took away.
      expect(inSession(config, 'agent:main:direct:x')).not.toContain('a2a_send');
    });

    it('an agent\'s own tools.sandbox.tools replaces the global one; sub-agent level alone applies to spawned sessions only', async () => {
      const r = await load(`{
        agents: { defaults: { sandbox: { mode: "all" } }, list: [
          { id: "main" },
          { id: "own", tools: { sandbox: { tools: { allow: ["session_status"] } } } },
          { id: "free", sandbox: { mode: "off" } },
        ] },
        tools: { sandbox: { tools: { deny: ["group:memory"] } }, subagents: { tools: { allow: ["session_status", "memory_get"] } } },
      }`);
      expect(r.errors).toEqual([]);
      const config = r.config!;
      expect(inSession(config, 'agent:main:main')).toEqual(BUILT_IN_TOOL_NAMES.filter((t) => !t.startsWith('memory_')));
      expect(inSession(config, 'agent:own:main')).toEqual(['session_status']);
      expect(inSession(config, 'agent:free:main')).toEqual([...BUILT_IN_TOOL_NAMES]);
      expect(inSession(config, 'agent:free:subagent:1')).toEqual(['session_status', 'memory_get']);
      // Sandboxed (mode all) and spawned: memory_get is denied by the sandbox level.
      expect(inSession(config, 'agent:main:subagent:1')).toEqual(['session_status']);
    });

    it('alsoAllow widens a sandbox allow list and alone restricts nothing', async () => {
      const r = await load(`{
        agents: { defaults: { sandbox: { mode: "all" } }, list: [
          { id: "main", tools: { sandbox: { tools: { allow: ["session_status"], alsoAllow: ["memory_get"] } } } },
          { id: "wide", tools: { sandbox: { tools: { alsoAllow: ["memory_get"] } } } },
        ] },
      }`);
      expect(r.errors).toEqual([]);
      expect(inSession(r.config!, 'agent:main:main')).toEqual(['session_status', 'memory_get']);
      expect(inSession(r.config!, 'agent:wide:main')).toEqual([...BUILT_IN_TOOL_NAMES]);
    });

    it('a key that does not parse gets the narrowest policy', async () => {
      const r = await load(`{ tools: { sandbox: { tools: { allow: ["session_status", "memory_get"] } }, subagents: { tools: { allow: ["session_status"] } } }, agents: { list: [{ id: "main" }] } }`);
      const agent = r.config!.agents[0];
      const tools = toolPolicyForSession(agent, 'not a session key', 'main');
      expect(BUILT_IN_TOOL_NAMES.filter((t) => isToolAllowed({ tools }, t))).toEqual(['session_status']);
    });

    it('bad input: unknown keys with did-you-mean, unknown groups and non-array lists are named', async () => {
      expect((await load('{ tools: { subagents: { tools: { alow: ["x"] } } } }')).errors).toEqual([
        expect.stringMatching(/^tools\.subagents\.tools\.alow: unknown key.*did you mean "allow"/),
      ]);
      expect((await load('{ tools: { sandbox: { tools: { deny: ["group:sesions"] } } } }')).errors).toEqual([
        'tools.sandbox.tools.deny[0]: unknown tool group "group:sesions" (did you mean "group:sessions"?)',
      ]);
      expect((await load('{ agents: { list: [{ id: "a", tools: { sandbox: { tools: { allow: "exec" } } } }] } }')).errors).toEqual([
        expect.stringMatching(/^agents\.list\[0\]\.tools\.sandbox\.tools\.allow: /),
      ]);
    });
  });
});
