// OpenClaw tool profiles, groups and top-level lists, resolved by the config module and read by the runtime's isToolAllowed.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isToolAllowed } from '../../src/modules/runtime/tool-registry';
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
  return { errors: [], warnings, tools };
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
      'a2a_send',
      'request_input',
    ]);
    expect(r.tools.narrow).toEqual(['sessions_list', 'sessions_history', 'sessions_spawn']);
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
});
