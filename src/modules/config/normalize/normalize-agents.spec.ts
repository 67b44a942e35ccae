import * as path from 'node:path';
import { QUOTE_LITERALLY } from '../pipeline/config-value-quoter';
import type { ConfigIssue } from '../pipeline/config-issue';
import { validateConfig } from '../pipeline/validate-config';
import { FALLBACK_MODEL, normalizeAgents } from './normalize-agents';
import type { NormalizeContext } from './normalize-context';

const CONFIG_DIR = path.resolve('/etc/clawgate');
const STATE = path.resolve('/var/lib/clawgate');
const HOME = path.resolve('/home/ada');

/** Runs the real validation first, so the input has the exact shape normalization gets in production. */
function run(agents: unknown) {
  const validated = validateConfig({ agents });
  if (!validated.config) throw new Error(`fixture is invalid: ${JSON.stringify(validated.errors)}`);
  const ctx: NormalizeContext = {
    configPath: path.join(CONFIG_DIR, 'openclaw.json'),
    stateDir: STATE,
    homeDir: HOME,
    env: {},
    unusableSecretPaths: new Set(),
    quoter: QUOTE_LITERALLY,
    errors: [],
    warnings: [],
  };
  const checked: Array<[string, string]> = [];
  // Records where each model setting is resolved; resolves it as written (aliases are agent-models.spec's).
  const out = normalizeAgents(ctx, validated.config.agents, (model, at) => {
    checked.push([typeof model === 'string' ? model : model.primary, at]);
    return typeof model === 'string' ? { primary: model } : { primary: model.primary, fallbacks: model.fallbacks };
  });
  return { ...out, errors: ctx.errors, warnings: ctx.warnings, checked };
}
const messages = (issues: ConfigIssue[]) => issues.map((i) => `${i.path}: ${i.message}`);

describe('normalizeAgents', () => {
  describe('the implicit main agent', () => {
    it.each([
      ['no agents section', undefined],
      ['an empty list', { list: [] }],
      ['an empty map', { entries: {} }],
    ])('%s gives one default agent "main" with every path under the state dir', (_label, agents) => {
      const { agents: resolved, defaultAgentId, errors } = run(agents);
      expect(errors).toEqual([]);
      expect(defaultAgentId).toBe('main');
      expect(resolved).toEqual([
        expect.objectContaining({
          id: 'main',
          isDefault: true,
          workspace: path.join(STATE, 'workspace-main'),
          agentDir: path.join(STATE, 'agents', 'main', 'agent'),
          sessionsDir: path.join(STATE, 'agents', 'main', 'sessions'),
          model: FALLBACK_MODEL,
          tools: { allow: [], deny: [] },
          sandbox: { mode: 'off', scope: undefined },
        }),
      ]);
    });

    it('inherits agents.defaults and checks the defaults model once', () => {
      const { agents, checked } = run({ defaults: { model: 'openai/gpt-4o', workspace: '~/agents' } });
      expect(agents[0]).toEqual(
        expect.objectContaining({ id: 'main', model: 'openai/gpt-4o', workspace: path.join(HOME, 'agents') }),
      );
      expect(checked).toEqual([['openai/gpt-4o', 'agents.defaults.model']]);
    });
  });

  describe('default agent', () => {
    it('is the entry with default: true', () => {
      const { defaultAgentId, agents } = run({ list: [{ id: 'a' }, { id: 'b', default: true }, { id: 'c' }] });
      expect(defaultAgentId).toBe('b');
      expect(agents.map((a) => a.isDefault)).toEqual([false, true, false]);
    });

    it('is the first entry when none is flagged', () => {
      expect(run({ list: [{ id: 'x' }, { id: 'y' }] }).defaultAgentId).toBe('x');
      expect(run({ entries: { zeta: {}, alpha: {} } }).defaultAgentId).toBe('zeta');
    });

    it('is the first flagged one when several are flagged, with a warning naming them', () => {
      const { defaultAgentId, warnings, agents } = run({ list: [{ id: 'a' }, { id: 'b', default: true }, { id: 'c', default: true }] });
      expect(defaultAgentId).toBe('b');
      expect(agents.filter((a) => a.isDefault).map((a) => a.id)).toEqual(['b']);
      expect(messages(warnings)).toEqual(['agents: several agents have default: true ("b", "c"); "b" is used']);
    });
  });

  describe('ids', () => {
    it('normalizes ids and records where each entry came from', () => {
      const { agents } = run({ list: [{ id: 'Support' }, { id: ' Code Bot! ' }, { id: '   ' }] });
      expect(agents.map((a) => [a.id, a.source])).toEqual([
        ['support', ['agents', 'list', 0]],
        ['code-bot', ['agents', 'list', 1]],
        ['main', ['agents', 'list', 2]],
      ]);
    });

    it('rejects two entries that normalize to the same id, naming both paths', () => {
      const { errors, agents } = run({ list: [{ id: 'Main' }, { id: 'other' }, { id: ' main' }] });
      expect(messages(errors)).toEqual(['agents.list[2].id: duplicate agent id "main" (after normalization; also at agents.list[0])']);
      expect(agents.map((a) => a.id)).toEqual(['main', 'other']);
    });

    it('gives ids that start with _ or - the canonical form session keys need, in both forms', () => {
      const listed = run({ list: [{ id: '_ops' }, { id: '__proto__' }, { id: '-x-' }] });
      expect(listed.agents.map((a) => a.id)).toEqual(['ops', 'proto__', 'x']);
      const mapped = run({ entries: { _ops: {}, '__Team__': {} } });
      expect(mapped.agents.map((a) => a.id)).toEqual(['ops', 'team__']);
    });

    it('rejects the id constructor in both forms, as agents.entries could not hold it as a key', () => {
      expect(messages(run({ list: [{ id: 'main' }, { id: 'Constructor' }] }).errors)).toEqual([
        'agents.list[1].id: agent id "constructor" is a reserved name',
      ]);
      expect(messages(run({ entries: { Constructor: {} } }).errors)).toEqual(['agents.entries.Constructor: agent id "constructor" is a reserved name']);
    });

    it('rejects duplicates in the map form too', () => {
      const { errors } = run({ entries: { 'Code Bot': {}, 'code-bot': {} } });
      expect(messages(errors)).toEqual([
        'agents.entries.code-bot: duplicate agent id "code-bot" (after normalization; also at agents.entries["Code Bot"])',
      ]);
    });
  });

  describe('list forms', () => {
    it('accepts the map form agents.entries: the key is the id, order is kept', () => {
      const { agents, defaultAgentId, errors } = run({
        entries: { support: { name: 'Support', model: 'echo/s' }, Expert: { default: true, identity: { emoji: '🧠' } } },
      });
      expect(errors).toEqual([]);
      expect(agents.map((a) => [a.id, a.name, a.model, a.source])).toEqual([
        ['support', 'Support', 'echo/s', ['agents', 'entries', 'support']],
        ['expert', undefined, FALLBACK_MODEL, ['agents', 'entries', 'Expert']],
      ]);
      expect(defaultAgentId).toBe('expert');
      expect(agents[1].identity).toEqual({ emoji: '🧠' });
    });

    it('refuses agents.list and agents.entries together', () => {
      const { errors } = run({ list: [{ id: 'a' }], entries: { b: {} } });
      expect(messages(errors)).toEqual(['agents.entries: use either agents.list or agents.entries, not both']);
    });
  });

  describe('agents.defaults merge (objects merge, arrays replace)', () => {
    const defaults = {
      model: 'echo/defaults',
      sandbox: { mode: 'all', scope: 'agent' },
      tools: { allow: ['sessions_list', 'sessions_send'], deny: ['a2a_send'] },
    };

    it('merges objects field by field', () => {
      const { agents } = run({ defaults, list: [{ id: 'a', sandbox: { scope: 'session' } }, { id: 'b' }] });
      expect(agents[0].sandbox).toEqual({ mode: 'all', scope: 'session' });
      expect(agents[1].sandbox).toEqual({ mode: 'all', scope: 'agent' });
    });

    it('replaces arrays: an agent list replaces the defaults list, an unset one inherits it', () => {
      const { agents } = run({
        defaults,
        list: [
          { id: 'a', tools: { allow: ['memory_search'] } },
          { id: 'b', tools: { deny: [] } },
        ],
      });
      expect(agents[0].tools).toEqual({ allow: ['memory_search'], deny: ['a2a_send'] });
      expect(agents[1].tools).toEqual({ allow: ['sessions_list', 'sessions_send'], deny: [] });
    });

    it('takes the entry model over the defaults model; the defaults model is checked only if inherited', () => {
      // An agent that sets primary and fallbacks inherits nothing of the defaults' model.
      const own = run({ defaults, list: [{ id: 'a', model: { primary: 'echo/own', fallbacks: [] } }] });
      expect(own.agents[0]).toMatchObject({ model: 'echo/own', fallbacks: [] });
      expect(own.checked).toEqual([['echo/own', 'agents.list[0].model']]);
      const mixed = run({ defaults, list: [{ id: 'a', model: { primary: 'echo/own', fallbacks: [] } }, { id: 'b' }] });
      expect(mixed.agents[1].model).toBe('echo/defaults');
      expect(mixed.checked).toEqual([
        ['echo/defaults', 'agents.defaults.model'],
        ['echo/own', 'agents.list[0].model'],
      ]);
    });

    it('a string model overrides the primary only: the fallbacks come from the defaults, [] turns them off (as in OpenClaw)', () => {
      const chain = { primary: 'echo/defaults', fallbacks: ['echo/second', 'echo/third'] };
      const { agents } = run({
        defaults: { model: chain },
        list: [
          { id: 'a', model: 'echo/own' },
          { id: 'b', model: { primary: 'echo/own' } },
          { id: 'c', model: { primary: 'echo/own', fallbacks: [] } },
          { id: 'd', model: { primary: 'echo/second', fallbacks: ['echo/fourth'] } },
          { id: 'e' },
        ],
      });
      expect(agents.map((a) => [a.id, a.model, a.fallbacks])).toEqual([
        ['a', 'echo/own', ['echo/second', 'echo/third']],
        ['b', 'echo/own', ['echo/second', 'echo/third']],
        ['c', 'echo/own', []],
        ['d', 'echo/second', ['echo/fourth']],
        ['e', 'echo/defaults', ['echo/second', 'echo/third']],
      ]);
    });

    it('keeps defaults extraCollections and adds the agent ones (OpenClaw merges these per agent)', () => {
      // The one list that is not replaced: agents.defaults.memorySearch.qmd.extraCollections is how a
      // shared collection is granted to every agent, and an agent adding its own must not lose it.
      const { agents } = run({
        defaults: { memorySearch: { qmd: { extraCollections: [{ path: '/srv/shared', name: 'shared' }] } } },
        list: [{ id: 'a', memorySearch: { qmd: { extraCollections: [{ path: 'notes' }] } } }, { id: 'b' }],
      });
      expect(agents[0].extraCollections.map((c) => c.name)).toEqual(['shared', 'notes']);
      expect(agents[1].extraCollections.map((c) => c.name)).toEqual(['shared']);
    });
  });

  describe('workspace and agentDir', () => {
    it('gives the default agent agents.defaults.workspace itself and joins it with the id for the others, as OpenClaw does', () => {
      const { agents } = run({ defaults: { workspace: '~/agents' }, list: [{ id: 'a' }, { id: 'b', workspace: '/opt/b' }, { id: 'c' }] });
      expect(agents.map((a) => a.workspace)).toEqual([path.join(HOME, 'agents'), path.resolve('/opt/b'), path.join(HOME, 'agents', 'c')]);
    });

    it('takes the agent marked default, not the first, for agents.defaults.workspace itself', () => {
      const { agents } = run({ defaults: { workspace: '~/.openclaw/workspace' }, list: [{ id: 'a' }, { id: 'Ops', default: true }] });
      expect(agents.map((a) => a.workspace)).toEqual([path.join(HOME, '.openclaw', 'workspace', 'a'), path.join(HOME, '.openclaw', 'workspace')]);
    });

    it('falls back to <stateDir>/workspace-<id>', () => {
      expect(run({ list: [{ id: 'Writer' }] }).agents[0].workspace).toBe(path.join(STATE, 'workspace-writer'));
    });

    it('expands ~ and ~/..., and resolves relative paths against the config directory', () => {
      const { agents } = run({
        list: [
          { id: 'a', workspace: '~' },
          { id: 'b', workspace: '~/ws/b' },
          { id: 'c', workspace: 'workspaces/c', agentDir: './state/c' },
          // ~user is not expanded (no user database lookups); it is just a relative name.
          { id: 'd', workspace: '~bob/x' },
        ],
      });
      expect(agents.map((a) => a.workspace)).toEqual([
        HOME,
        path.join(HOME, 'ws', 'b'),
        path.join(CONFIG_DIR, 'workspaces', 'c'),
        path.join(CONFIG_DIR, '~bob', 'x'),
      ]);
      expect(agents[2].agentDir).toBe(path.join(CONFIG_DIR, 'state', 'c'));
    });
  });

  describe('extraCollections', () => {
    it('needs a name for a path outside the workspace', () => {
      const { errors, agents } = run({
        list: [{ id: 'main', memorySearch: { qmd: { extraCollections: [{ path: '~/.openclaw/agents/family/sessions' }] } } }],
      });
      expect(messages(errors)).toEqual([
        'agents.list[0].memorySearch.qmd.extraCollections[0].name: is required because "~/.openclaw/agents/family/sessions" lies outside the agent workspace (a name makes the grant explicit)',
      ]);
      expect(agents[0].extraCollections).toEqual([]);
    });

    it('treats ../ as outside, and accepts relative or absolute paths inside the workspace without a name', () => {
      const escape = run({ list: [{ id: 'a', memorySearch: { qmd: { extraCollections: [{ path: '../b/sessions' }] } } }] });
      expect(escape.errors.map((e) => e.path)).toEqual(['agents.list[0].memorySearch.qmd.extraCollections[0].name']);

      const ws = path.join(STATE, 'workspace-a');
      const inside = run({
        list: [
          {
            id: 'a',
            memorySearch: { qmd: { extraCollections: [{ path: 'notes/daily', pattern: '*.md' }, { path: path.join(ws, 'docs') }] } },
          },
        ],
      });
      expect(inside.errors).toEqual([]);
      expect(inside.agents[0].extraCollections).toEqual([
        { path: path.join(ws, 'notes', 'daily'), name: 'notes-daily', pattern: '*.md' },
        { path: path.join(ws, 'docs'), name: 'docs' },
      ]);
    });

    it('reports a nameless outside path in agents.defaults once, not once per agent', () => {
      const { errors } = run({
        defaults: { memorySearch: { qmd: { extraCollections: [{ path: '/srv/shared' }] } } },
        list: [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
      });
      expect(errors.map((e) => e.path)).toEqual(['agents.defaults.memorySearch.qmd.extraCollections[0].name']);
    });
  });
});

describe('spawn limits (agents.*.subagents)', () => {
  it('takes the agent’s own limit, else agents.defaults’, else OpenClaw’s default, naming where each came from', () => {
    const { agents, errors } = run({
      defaults: { subagents: { maxSpawnDepth: 3 } },
      list: [{ id: 'a' }, { id: 'b', subagents: { maxSpawnDepth: 1, maxChildrenPerAgent: 2 } }],
    });
    expect(errors).toEqual([]);
    expect(agents.map((a) => a.subagents)).toEqual([
      {
        maxSpawnDepth: { value: 3, key: 'agents.defaults.subagents.maxSpawnDepth' },
        maxChildrenPerAgent: { value: 5, key: 'agents.defaults.subagents.maxChildrenPerAgent' },
      },
      {
        maxSpawnDepth: { value: 1, key: 'agents.list[1].subagents.maxSpawnDepth' },
        maxChildrenPerAgent: { value: 2, key: 'agents.list[1].subagents.maxChildrenPerAgent' },
      },
    ]);
  });

  it.each([
    [{ defaults: { subagents: { maxSpawnDepth: 0 } } }, 'agents.defaults.subagents.maxSpawnDepth'],
    [{ defaults: { subagents: { maxSpawnDepth: 6 } } }, 'agents.defaults.subagents.maxSpawnDepth'],
    [{ defaults: { subagents: { maxChildrenPerAgent: 21 } } }, 'agents.defaults.subagents.maxChildrenPerAgent'],
    [{ list: [{ id: 'a', subagents: { maxChildrenPerAgent: 0 } }] }, 'agents.list[0].subagents.maxChildrenPerAgent'],
    [{ list: [{ id: 'a', subagents: { maxSpawnDepth: 2.5 } }] }, 'agents.list[0].subagents.maxSpawnDepth'],
    [{ defaults: { subagents: { maxSpawnDepth: '2' } } }, 'agents.defaults.subagents.maxSpawnDepth'],
  ])('refuses %j with an error naming %s', (agents, key) => {
    const validated = validateConfig({ agents });
    expect(validated.config).toBeUndefined();
    expect(validated.errors.map((e) => e.path)).toContain(key);
  });
});

describe('tool approvals (agents.*.tools.requiresApproval, approvalTimeoutMs)', () => {
  it('takes the agent’s own list, else agents.defaults’, with groups expanded, and the timeout likewise', () => {
    const { agents, errors } = run({
      defaults: { tools: { requiresApproval: ['mcp:files:*'], approvalTimeoutMs: 30_000 } },
      list: [{ id: 'a' }, { id: 'b', tools: { requiresApproval: ['group:memory', 'a2a_send'], approvalTimeoutMs: 5000, approvers: ['telegram:42', 'slack:U01'] } }, { id: 'c', tools: { requiresApproval: [] } }],
    });
    expect(errors).toEqual([]);
    expect(agents.map((a) => a.approvals)).toEqual([
      { tools: ['mcp:files:*'], timeoutMs: 30_000, approvers: [] },
      { tools: ['memory_search', 'memory_get', 'a2a_send'], timeoutMs: 5000, approvers: ['telegram:42', 'slack:U01'] },
      { tools: [], timeoutMs: 30_000, approvers: [] },
    ]);
  });

  it('needs no approval and waits ten minutes when nothing is set', () => {
    const { agents } = run({ list: [{ id: 'a' }] });
    expect(agents[0].approvals).toEqual({ tools: [], timeoutMs: 600_000, approvers: [] });
  });

  it('refuses an unknown tool group, naming the key and the group', () => {
    const { errors } = run({ list: [{ id: 'a', tools: { requiresApproval: ['group:nope'] } }] });
    expect(errors).toEqual([{ path: 'agents.list[0].tools.requiresApproval', message: expect.stringMatching(/^unknown tool group "group:nope"; known: group:/) }]);
  });

  it.each([
    [{ defaults: { tools: { requiresApproval: 'exec' } } }, 'agents.defaults.tools.requiresApproval'],
    [{ defaults: { tools: { requiresApproval: [''] } } }, 'agents.defaults.tools.requiresApproval'],
    [{ list: [{ id: 'a', tools: { requiresApproval: [7] } }] }, 'agents.list[0].tools.requiresApproval'],
    [{ defaults: { tools: { approvalTimeoutMs: 999 } } }, 'agents.defaults.tools.approvalTimeoutMs'],
    [{ list: [{ id: 'a', tools: { approvalTimeoutMs: 604_800_001 } }] }, 'agents.list[0].tools.approvalTimeoutMs'],
    [{ list: [{ id: 'a', tools: { approvalTimeoutMs: '10m' } }] }, 'agents.list[0].tools.approvalTimeoutMs'],
    [{ list: [{ id: 'a', tools: { approvers: ['12345'] } }] }, 'agents.list[0].tools.approvers'],
    [{ defaults: { tools: { approvers: ['telegram:'] } } }, 'agents.defaults.tools.approvers'],
  ])('refuses %j with an error naming %s', (agents, key) => {
    const validated = validateConfig({ agents });
    expect(validated.config).toBeUndefined();
    expect(validated.errors.map((e) => e.path)).toContain(key);
  });
});
