import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

const ADMIN = 'plan-admin-token-1a2b3c4d';
const CI = 'plan-ci-token-5e6f7a8b';
const OPERATOR = 'plan-operator-token-9c0d1e2f';
const HERMES = 'hermes-secret-from-env-123';
const ATHENA = 'athena-literal-token-456';

// Three agents, two bindings, agent-to-agent open to all, a memory backend that reads grants, two peers
// (one token from the environment) and three admin tokens.
const FIXTURE = `{
  // a comment a plan must never touch
  agents: {
    list: [
      { id: "main", workspace: "./ws/main" },
      { id: "support", workspace: "./ws/support" },
      { id: "family", workspace: "./ws/family" },
    ],
  },
  bindings: [
    { agentId: "support", match: { channel: "http", accountId: "web" } },
    { agentId: "family", match: { channel: "http", peer: { kind: "direct", id: "grandma" } } },
  ],
  tools: { agentToAgent: { enabled: true, allow: ["*"] }, sessions: { visibility: "all" } },
  memory: { backend: "qmd" },
  channels: {
    a2a: {
      enabled: true,
      peers: { hermes: { token: "\${HERMES_TOKEN}" }, athena: { token: "${ATHENA}" } },
    },
  },
  gateway: {
    admin: {
      tokens: [
        { name: "root", token: "${ADMIN}", role: "admin" },
        { name: "ops", token: "${OPERATOR}", role: "operator" },
        { name: "ci", token: "${CI}", role: "viewer" },
      ],
    },
  },
}
`;

const NO_ROUTING_CHANGE = [
  {
    probe: 'binding',
    inbound: { channel: 'http', accountId: 'web' },
    before: { agentId: 'support', matchedBy: { tier: 'accountId', bindingIndex: 0 } },
    after: { agentId: 'support', matchedBy: { tier: 'accountId', bindingIndex: 0 } },
    changed: false,
  },
  {
    probe: 'binding',
    inbound: { channel: 'http', peer: { kind: 'direct', id: 'grandma' } },
    before: { agentId: 'family', matchedBy: { tier: 'peer', bindingIndex: 1 } },
    after: { agentId: 'family', matchedBy: { tier: 'peer', bindingIndex: 1 } },
    changed: false,
  },
  {
    probe: 'default',
    inbound: null,
    before: { agentId: 'main', matchedBy: { tier: 'default', bindingIndex: null } },
    after: { agentId: 'main', matchedBy: { tier: 'default', bindingIndex: null } },
    changed: false,
  },
];

const NO_A2A_CHANGE = { peersAdded: [], peersRemoved: [], tokensRotated: [], exposedAgents: null, limits: [] };
const NO_ADMIN_CHANGE = {
  tokensAdded: [],
  tokensRemoved: [],
  tokensChanged: [],
  ssoRoleMappingsAdded: [],
  ssoRoleMappingsRemoved: [],
  ssoRoleMappingsChanged: [],
  sso: [],
};

describe('POST /admin/config/plan (e2e)', () => {
  let gw: TestGateway;
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const plan = (body: unknown, token = ADMIN) =>
    request(gw.url)
      .post('/admin/config/plan')
      .set(as(token))
      .send(body as object);
  const policyCheck = async (from: string, to: string) => {
    const res = await request(gw.url).get('/admin/policy/check').set(as(ADMIN)).query({ from, to }).expect(200);
    return { allowed: res.body.allowed, layer: res.body.layer, rule: res.body.rule };
  };

  beforeAll(async () => {
    gw = await startTestGateway(FIXTURE, { env: { HERMES_TOKEN: HERMES } });
  });
  afterAll(() => gw.stop());

  it('a moved binding: exact routing entries, including the message that now falls through to the default', async () => {
    const res = await plan({ mergePatch: { bindings: [{ agentId: 'family', match: { channel: 'http', accountId: 'web' } }] } }).expect(200);
    expect(res.body.valid).toBe(true);
    expect(res.body.errors).toEqual([]);
    expect(res.body.pendingRestart).toEqual([]);
    expect(res.body.impact.routing).toEqual([
      {
        probe: 'binding',
        inbound: { channel: 'http', accountId: 'web' },
        before: { agentId: 'support', matchedBy: { tier: 'accountId', bindingIndex: 0 } },
        after: { agentId: 'family', matchedBy: { tier: 'accountId', bindingIndex: 0 } },
        changed: true,
      },
      {
        probe: 'binding',
        inbound: { channel: 'http', peer: { kind: 'direct', id: 'grandma' } },
        before: { agentId: 'family', matchedBy: { tier: 'peer', bindingIndex: 1 } },
        after: { agentId: 'main', matchedBy: { tier: 'default', bindingIndex: null } },
        changed: true,
      },
      NO_ROUTING_CHANGE[2],
    ]);
    expect(res.body.impact.agentToAgent).toEqual([]);
    expect(res.body.impact.memory).toEqual({ grantsAdded: [], grantsRemoved: [] });
    expect(res.body.impact.a2a).toEqual(NO_A2A_CHANGE);
    expect(res.body.impact.admin).toEqual(NO_ADMIN_CHANGE);
    expect(res.body.diff).toContain('--- openclaw.json\tcurrent');
    expect(res.body.diff).toMatch(/^-.*"support"/m);
    expect(res.body.diff).toMatch(/^\+.*"family"/m);
    // Context lines keep the user's comment: the candidate text is the writer's minimal edit.
    expect(res.body.diff).not.toMatch(/^-.*a comment a plan must never touch/m);
  });

  it('tools.agentToAgent.enabled turned off: every pair, with the layer and rule of /admin/policy/check before and after', async () => {
    const res = await plan({ mergePatch: { tools: { agentToAgent: { enabled: false } } } }).expect(200);
    const agents = ['main', 'support', 'family'];
    const expected = [];
    for (const from of agents) {
      for (const to of agents) {
        if (from === to) continue;
        expected.push({
          from,
          to,
          before: await policyCheck(from, to),
          after: { allowed: false, layer: 'policy', rule: 'tools.agentToAgent.enabled is not true' },
        });
      }
    }
    expect(expected[0].before.allowed).toBe(true);
    expect(res.body.impact.agentToAgent).toEqual(expected);
    expect(res.body.impact.routing).toEqual(NO_ROUTING_CHANGE);
  });

  it('an allow pattern narrowed: only the pairs that involve the agent left out', async () => {
    const res = await plan({ mergePatch: { tools: { agentToAgent: { allow: ['main', 'support'] } } } }).expect(200);
    const pairs = [
      ['main', 'family'],
      ['support', 'family'],
      ['family', 'main'],
      ['family', 'support'],
    ];
    const expected = [];
    for (const [from, to] of pairs) {
      expected.push({
        from,
        to,
        before: await policyCheck(from, to),
        after: { allowed: false, layer: 'policy', rule: 'tools.agentToAgent.allow: no pattern matches "family"' },
      });
    }
    expect(res.body.impact.agentToAgent).toEqual(expected);
  });

  it('an extraCollections grant added: who may now search whose collection', async () => {
    const grant = { name: 'family-notes', path: '../family/notes' };
    const res = await plan({
      mergePatch: {
        agents: {
          list: [
            { id: 'main', workspace: './ws/main', memorySearch: { qmd: { extraCollections: [grant] } } },
            { id: 'support', workspace: './ws/support' },
            { id: 'family', workspace: './ws/family' },
          ],
        },
      },
    }).expect(200);
    const workspaceOfFamily = path.join(gw.dir, 'ws', 'family');
    expect(res.body.impact.memory).toEqual({
      grantsAdded: [
        { agent: 'main', collection: 'family-notes', path: path.join(workspaceOfFamily, 'notes'), pattern: '**/*.md', owner: 'family' },
      ],
      grantsRemoved: [],
    });
    expect(res.body.impact.agentToAgent).toEqual([]);
  });

  it('a peer removed, and a token rotated without showing either value', async () => {
    const removed = await plan({ mergePatch: { channels: { a2a: { peers: { athena: null } } } } }).expect(200);
    expect(removed.body.impact.a2a).toEqual({ ...NO_A2A_CHANGE, peersRemoved: ['athena'] });
    expect(removed.body.diff).toMatch(/^-.*athena: \{ token: "\[redacted\]" \}/m);
    expect(removed.body.diff).toMatch(/^\+ *peers: \{ hermes: \{ token: "\$\{HERMES_TOKEN\}" \} \},$/m);

    const rotated = await plan({ mergePatch: { channels: { a2a: { peers: { hermes: { token: 'hermes-new-literal-789' } } } } } }).expect(
      200,
    );
    expect(rotated.body.impact.a2a).toEqual({ ...NO_A2A_CHANGE, tokensRotated: [{ peer: 'hermes', field: 'token', change: 'rotated' }] });
    expect(rotated.text).not.toContain('hermes-new-literal-789');
    expect(rotated.text).not.toContain(HERMES);
    expect(rotated.text).not.toContain(ATHENA);
    expect(rotated.body.diff).toMatch(/^-.*\$\{HERMES_TOKEN\}/m);
    expect(rotated.body.diff).toMatch(/^\+.*\[redacted, changed\]/m);
  });

  it('budgets added: their limits and window, and which agents and peers each applies to', async () => {
    const added = await plan({
      mergePatch: {
        budgets: [
          { name: 'helpers', agent: 's*', tokens: 1000, window: 'day' },
          { name: 'partners', peer: '*', cost: 5, window: '12h', softAt: 0.5 },
        ],
      },
    }).expect(200);
    expect(added.body.impact.budgets).toEqual({
      added: [
        { name: 'helpers', scope: 'agent', pattern: 's*', tokens: 1000, cost: null, window: 'day', softAt: null, appliesTo: ['support'] },
        { name: 'partners', scope: 'peer', pattern: '*', tokens: null, cost: 5, window: '12h', softAt: 0.5, appliesTo: ['hermes', 'athena'] },
      ],
      removed: [],
      changed: [],
      targets: [
        { scope: 'agent', id: 'support', gained: ['helpers'], lost: [], changed: [] },
        { scope: 'peer', id: 'athena', gained: ['partners'], lost: [], changed: [] },
        { scope: 'peer', id: 'hermes', gained: ['partners'], lost: [], changed: [] },
      ],
    });
    expect(added.text).not.toContain(HERMES);
  });

  it('an admin token role changed, with no token in the answer', async () => {
    const tokens = [
      { name: 'root', token: ADMIN, role: 'admin' },
      { name: 'ops', token: OPERATOR, role: 'operator' },
      { name: 'ci', token: CI, role: 'operator' },
    ];
    const res = await plan({ mergePatch: { gateway: { admin: { tokens } } } }).expect(200);
    expect(res.body.impact.admin).toEqual({
      ...NO_ADMIN_CHANGE,
      tokensChanged: [{ name: 'ci', role: { before: 'viewer', after: 'operator' } }],
    });
    for (const secret of [ADMIN, OPERATOR, CI]) expect(res.text).not.toContain(secret);
  });

  it('an invalid candidate is still a plan: 200, valid false, the errors by dotted path, no impact', async () => {
    const res = await plan({ mergePatch: { agents: { list: [{ id: 'main', modle: 'echo/x' }] } } }).expect(200);
    expect(res.body).toMatchObject({ valid: false, candidateRevision: null, impact: null, pendingRestart: [] });
    expect(res.body.errors).toContainEqual(
      expect.objectContaining({ path: 'agents.list[0].modle', message: 'unknown key (did you mean "model"?)' }),
    );
    expect(res.body.diff).toContain('modle');
  });

  it('takes a whole document, through the same pipeline as a reload (${VAR} from the gateway environment)', async () => {
    const document = FIXTURE.replace('gateway: {', 'gateway: {\n    port: 18999,');
    const res = await plan({ document }).expect(200);
    expect(res.body.valid).toBe(true);
    expect(res.body.pendingRestart).toEqual(['gateway.port']);
    expect(res.body.impact.routing).toEqual(NO_ROUTING_CHANGE);
    expect(res.body.diff).toMatch(/^\+\s*port: 18999,/m);
    const unset = await plan({ document: FIXTURE.replace('${HERMES_TOKEN}', '${PLAN_UNSET_VAR}') }).expect(200);
    expect(unset.body.impact.a2a.tokensRotated).toEqual([{ peer: 'hermes', field: 'token', change: 'removed' }]);
  });

  it('answers bad input with a 400 naming what is wrong, and stays up', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /send document .* or mergePatch/],
      [{ document: '{}', mergePatch: {} }, /either document or mergePatch, not both/],
      [{ document: '{ agents: ' }, /document is not valid JSON5: invalid end of input at 1:11/],
      [{ document: '[1, 2]' }, /document must be a JSON5 object/],
      [{ document: 42 }, /document must be the config file as JSON5 text \(a string\), not number/],
      [{ mergePatch: [1, 2] }, /mergePatch must be a JSON object .*not an array/],
      [{ mergePatch: 'x' }, /mergePatch must be a JSON object .*not string/],
      [{ mergePatch: null }, /mergePatch must be a JSON object .*not null/],
      [{ mergepatch: {} }, /property mergepatch should not exist/],
    ];
    for (const [body, detail] of cases) {
      const res = await plan(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body.detail).toMatch(detail);
    }
    await request(gw.url).get('/healthz').expect(200);
  });

  it('needs the admin role, like validate: a viewer and an operator are refused', async () => {
    const body = { mergePatch: { tools: { agentToAgent: { enabled: false } } } };
    for (const token of [CI, OPERATOR]) {
      const refused = await plan(body, token).expect(403);
      expect(refused.body.detail).toContain('requires the "admin" role');
    }
    await plan(body, ADMIN).expect(200);
  });

  it('never changes the file or the revision', async () => {
    const bytes = await fs.readFile(gw.configPath);
    const status = (await request(gw.url).get('/admin/config/status').set(as(ADMIN)).expect(200)).body;
    await plan({ mergePatch: { bindings: null, tools: { agentToAgent: { enabled: false } } } }).expect(200);
    await plan({ document: '{ agents: { list: [{ id: "other" }] } }' }).expect(200);
    await plan({ mergePatch: { agents: { list: [{ id: 'x', modle: 1 }] } } }).expect(200);
    expect(await fs.readFile(gw.configPath)).toEqual(bytes);
    const after = (await request(gw.url).get('/admin/config/status').set(as(ADMIN)).expect(200)).body;
    expect(after).toEqual(status);
  });
});
