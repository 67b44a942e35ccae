import type { SessionVisibility } from '../config/config.types';
import type { AgentToAgentSettingsInput } from './agent-to-agent-policy';
import { checkSessionAccess, SessionAccessConfig, SessionAccessDecision } from './session-access';

/*
 * The whole layer 2 + 3 matrix (docs/sessions.md#who-may-see-which-session):
 *   visibility {self, tree, agent, all} × enabled {unset, false, true} × allow {[], ["*"], exact, glob, none}
 *   × relation {same session, other session of the agent, spawned child, other agent} × sandboxed {no, yes}
 *   = 4 × 3 × 5 × 4 × 2 = 480 cells.
 *
 * Every expected outcome below is written out by hand from the documented rules, one token per cell — nothing is
 * derived from the implementation. Requester: agent `support`, session agent:support:main. Target agent of
 * the cross-agent cells: `expert`. Sandboxed = the requester agent has sandbox.mode "all".
 */

const ALLOW: Record<string, string[]> = {
  empty: [],
  star: ['*'],
  exact: ['support', 'expert'],
  glob: ['*ert', 'sup*'],
  none: ['other'],
};
const ALLOW_ORDER = ['empty', 'star', 'exact', 'glob', 'none'] as const;
const ENABLED_ORDER = ['unset', 'false', 'true'] as const;

/** Cell tokens → the exact outcome (docs/sessions.md#refusal-messages texts, deliberately not imported from the code). */
const OUTCOMES: Record<string, { allowed: true } | { allowed: false; layer: 'visibility' | 'policy'; message: string }> = {
  ok: { allowed: true },
  Vs: { allowed: false, layer: 'visibility', message: 'Session is not visible from this session (tools.sessions.visibility=self).' },
  Vt: { allowed: false, layer: 'visibility', message: 'Session is not visible from this session (tools.sessions.visibility=tree).' },
  Va: { allowed: false, layer: 'visibility', message: 'Session is not visible from this session (tools.sessions.visibility=agent).' },
  Dis: { allowed: false, layer: 'policy', message: 'Agent-to-agent messaging is disabled.' },
  Den: { allowed: false, layer: 'policy', message: 'Agent-to-agent messaging denied by tools.agentToAgent.allow.' },
};

// prettier-ignore
const TABLE = `
#                        | enabled unset           | enabled false           | enabled true
# vis   sandbox relation | []  *   exact glob none | []  *   exact glob none | []  *   exact glob none
  self  no      same     | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  self  no      other    | Vs  Vs  Vs    Vs   Vs   | Vs  Vs  Vs    Vs   Vs   | Vs  Vs  Vs    Vs   Vs
  self  no      child    | Vs  Vs  Vs    Vs   Vs   | Vs  Vs  Vs    Vs   Vs   | Vs  Vs  Vs    Vs   Vs
  self  no      cross    | Vs  Vs  Vs    Vs   Vs   | Vs  Vs  Vs    Vs   Vs   | Vs  Vs  Vs    Vs   Vs
  tree  no      same     | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  tree  no      other    | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt
  tree  no      child    | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  tree  no      cross    | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt
  agent no      same     | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  agent no      other    | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  agent no      child    | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  agent no      cross    | Va  Va  Va    Va   Va   | Va  Va  Va    Va   Va   | Va  Va  Va    Va   Va
  all   no      same     | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  all   no      other    | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  all   no      child    | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  all   no      cross    | Dis Dis Dis   Dis  Dis  | Dis Dis Dis   Dis  Dis  | ok  ok  ok    ok   Den
  self  yes     same     | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  self  yes     other    | Vs  Vs  Vs    Vs   Vs   | Vs  Vs  Vs    Vs   Vs   | Vs  Vs  Vs    Vs   Vs
  self  yes     child    | Vs  Vs  Vs    Vs   Vs   | Vs  Vs  Vs    Vs   Vs   | Vs  Vs  Vs    Vs   Vs
  self  yes     cross    | Vs  Vs  Vs    Vs   Vs   | Vs  Vs  Vs    Vs   Vs   | Vs  Vs  Vs    Vs   Vs
  tree  yes     same     | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  tree  yes     other    | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt
  tree  yes     child    | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  tree  yes     cross    | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt
  agent yes     same     | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  agent yes     other    | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt
  agent yes     child    | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  agent yes     cross    | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt
  all   yes     same     | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  all   yes     other    | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt
  all   yes     child    | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok   | ok  ok  ok    ok   ok
  all   yes     cross    | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt   | Vt  Vt  Vt    Vt   Vt
`;

const REQUESTER = 'agent:support:main';
const TARGETS: Record<string, string> = {
  same: REQUESTER,
  other: 'agent:support:direct:alice',
  child: 'agent:support:subagent:0b6c7f0e-5d2a-4c1e-9a61-3f1e2b4c5d6e',
  cross: 'agent:expert:main',
};
/** child → parent; the only spawn edge in this world. */
const SPAWNED: Record<string, string> = { [TARGETS.child]: REQUESTER };
const isSpawnedBy = async (target: string, ancestor: string): Promise<boolean> => {
  for (let k = SPAWNED[target]; k !== undefined; k = SPAWNED[k]) if (k === ancestor) return true;
  return false;
};

interface Cell {
  name: string;
  visibility: SessionVisibility;
  sandboxed: boolean;
  relation: string;
  enabled: (typeof ENABLED_ORDER)[number];
  allow: (typeof ALLOW_ORDER)[number];
  expected: string;
}

function parseTable(): Cell[] {
  const cells: Cell[] = [];
  for (const line of TABLE.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    const [head, ...groups] = line.split('|').map((g) => g.trim().split(/\s+/));
    const [visibility, sandbox, relation] = head;
    if (groups.length !== 3 || groups.some((g) => g.length !== 5)) throw new Error(`malformed table row: ${line}`);
    groups.forEach((tokens, e) =>
      tokens.forEach((expected, a) => {
        if (!(expected in OUTCOMES)) throw new Error(`unknown token ${expected} in: ${line}`);
        const enabled = ENABLED_ORDER[e];
        const allow = ALLOW_ORDER[a];
        cells.push({
          name: `visibility=${visibility} sandboxed=${sandbox} ${relation} enabled=${enabled} allow=${allow}`,
          visibility: visibility as SessionVisibility,
          sandboxed: sandbox === 'yes',
          relation,
          enabled,
          allow,
          expected,
        });
      }),
    );
  }
  return cells;
}

function run(cell: Cell): Promise<SessionAccessDecision> {
  const agentToAgent: AgentToAgentSettingsInput =
    cell.enabled === 'unset' ? { allow: ALLOW[cell.allow] } : { enabled: cell.enabled === 'true', allow: ALLOW[cell.allow] };
  const config: SessionAccessConfig = {
    agents: [
      { id: 'support', sandbox: { mode: cell.sandboxed ? 'all' : 'off' } },
      { id: 'expert', sandbox: { mode: 'off' } },
    ],
    tools: { agentToAgent, sessions: { visibility: cell.visibility } },
  };
  return checkSessionAccess({ requesterKey: REQUESTER, targetKey: TARGETS[cell.relation], config, isSpawnedBy });
}

const CELLS = parseTable();

describe('visibility × agent-to-agent policy matrix (480 cells)', () => {
  it('covers every combination exactly once', () => {
    expect(CELLS).toHaveLength(480);
    expect(new Set(CELLS.map((c) => c.name)).size).toBe(480);
  });

  it.each(CELLS.map((c) => [c.name, c] as const))('%s', async (_name, cell) => {
    const decision = await run(cell);
    const expected = OUTCOMES[cell.expected];
    if (expected.allowed) {
      expect(decision).toEqual({ allowed: true, layer: null, rule: expect.any(String) });
    } else {
      expect(decision).toEqual({ allowed: false, layer: expected.layer, message: expected.message, rule: expect.any(String) });
    }
    expect(decision.rule.length).toBeGreaterThan(0);
  });

  it('leaks nothing: the only allowed cross-agent cells are the 4 the table allows', async () => {
    const decisions = await Promise.all(CELLS.map(async (c) => ({ cell: c, decision: await run(c) })));
    const leaks = decisions.filter(({ cell, decision }) => decision.allowed && !OUTCOMES[cell.expected].allowed);
    expect(leaks.map((l) => l.cell.name)).toEqual([]);
    const crossAllowed = decisions.filter(({ cell, decision }) => cell.relation === 'cross' && decision.allowed);
    expect(crossAllowed.map((d) => d.cell.name).sort()).toEqual([
      'visibility=all sandboxed=no cross enabled=true allow=empty',
      'visibility=all sandboxed=no cross enabled=true allow=exact',
      'visibility=all sandboxed=no cross enabled=true allow=glob',
      'visibility=all sandboxed=no cross enabled=true allow=star',
    ]);
    // and a sandboxed requester never reaches another agent
    expect(decisions.filter(({ cell, decision }) => cell.sandboxed && cell.relation === 'cross' && decision.allowed)).toHaveLength(0);
  });
});
