import request from 'supertest';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

// `sandy` runs sandboxed; the main session is renamed to prove the defaults follow session.mainKey.
const CONFIG = (enabled: boolean) => `{
  agents: { list: [{ id: "main" }, { id: "support" }, { id: "expert" }, { id: "sandy", sandbox: { mode: "all" } }] },
  tools: {
    agentToAgent: { enabled: ${enabled}, allow: ["sup*", "expert"] },
    sessions: { visibility: "all" },
  },
  session: { mainKey: "home" },
}`;

const DISABLED = 'Agent-to-agent messaging is disabled.';
const DENIED = 'Agent-to-agent messaging denied by tools.agentToAgent.allow.';
const NOT_VISIBLE_TREE = 'Session is not visible from this session (tools.sessions.visibility=tree).';

describe('GET /admin/policy/check (e2e)', () => {
  let gw: TestGateway;
  const check = (query: Record<string, string | readonly string[]>) => request(gw.url).get('/admin/policy/check').query(query);

  beforeAll(async () => {
    gw = await startTestGateway(CONFIG(false));
  });
  afterAll(() => gw.stop());

  it('is documented in the OpenAPI document', async () => {
    const docs = await request(gw.url).get('/docs-json').expect(200);
    const op = docs.body.paths['/admin/policy/check']?.get;
    expect(op).toBeDefined();
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['from', 'fromSession', 'to', 'toSession']);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '404']));
  });

  it('answers policy-layer denials with the exact message', async () => {
    const res = await check({ from: 'support', to: 'expert' }).expect(200);
    expect(res.body).toEqual({ allowed: false, layer: 'policy', rule: 'tools.agentToAgent.enabled is not true', message: DISABLED });
  });

  it('allows a session to see itself, with the defaults following session.mainKey', async () => {
    const res = await check({ from: 'sandy', to: 'sandy', toSession: 'agent:sandy:home' }).expect(200);
    expect(res.body).toEqual({ allowed: true, layer: null, rule: 'same session: a session always sees itself' });
  });

  it('answers visibility-layer denials (sandbox clamps to tree) before the policy is consulted', async () => {
    const cross = await check({ from: 'sandy', to: 'expert' }).expect(200);
    expect(cross.body).toEqual({
      allowed: false,
      layer: 'visibility',
      rule: 'sandbox clamps visibility to tree: cross-agent access is forbidden',
      message: NOT_VISIBLE_TREE,
    });
    const sibling = await check({ from: 'sandy', to: 'sandy', toSession: 'agent:sandy:http:direct:bob' }).expect(200);
    expect(sibling.body).toMatchObject({ allowed: false, layer: 'visibility', message: NOT_VISIBLE_TREE });
  });

  it('consults the real session store for "spawned by"', async () => {
    const store = gw.app.get<SessionStore>(SESSION_STORE);
    const child = 'agent:sandy:subagent:7d0b1c7e-2f0a-4d5e-8a4b-0c1d2e3f4a5b';
    await store.getOrCreate('agent:sandy:home');
    await store.getOrCreate(child, { spawnedBy: 'agent:sandy:home' });
    const res = await check({ from: 'sandy', to: 'sandy', toSession: child }).expect(200);
    expect(res.body).toEqual({ allowed: true, layer: null, rule: 'sandbox clamps visibility to tree: target spawned by requester' });
  });

  it.each([
    ['from is missing', { to: 'expert' }, 400, /^from is required: one agent id/],
    ['to is empty', { from: 'support', to: '' }, 400, /^to is required: one agent id/],
    ['from is given twice', { from: ['support', 'main'], to: 'expert' }, 400, /^from is required: one agent id/],
    ['an unknown query parameter', { from: 'support', to: 'expert', form: 'x' }, 400, /form/],
    ['from is not a configured agent', { from: 'suport', to: 'expert' }, 404, /unknown agent "suport" \(did you mean "support"\?\)/],
    ['to is not a configured agent', { from: 'support', to: 'nobody' }, 404, /unknown agent "nobody"/],
    [
      'fromSession belongs to another agent',
      { from: 'support', to: 'expert', fromSession: 'agent:expert:home' },
      400,
      /belongs to agent "expert", not "support"/,
    ],
    [
      'toSession belongs to another agent',
      { from: 'support', to: 'expert', toSession: 'agent:support:home' },
      400,
      /toSession .* belongs to agent "support", not "expert"/,
    ],
    ['toSession is not a session key', { from: 'support', to: 'expert', toSession: 'expert-main' }, 400, /is not a session key/],
    ['toSession is empty', { from: 'support', to: 'expert', toSession: '' }, 400, /toSession "" is not a session key/],
  ] as const)('rejects bad input (%s) with problem+json', async (_what, query, status, detail) => {
    const res = await check(query).expect(status);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({ type: 'about:blank', status, instance: '/admin/policy/check' });
    expect(res.body.detail).toMatch(detail);
  });

  it('follows a config edit (hot reload): enabling A2A changes the answer', async () => {
    await gw.writeConfig(CONFIG(true));
    const allowed = await waitFor(
      'the A2A switch to apply',
      async () => {
        const res = await check({ from: 'support', to: 'expert' });
        return res.body.allowed === true ? res.body : undefined;
      },
      3000,
    );
    expect(allowed).toEqual({
      allowed: true,
      layer: null,
      rule: 'visibility=all; tools.agentToAgent.allow: "sup*" matched support, "expert" matched expert',
    });
    // main is on no allow pattern: now the list, not the switch, refuses
    const denied = await check({ from: 'main', to: 'expert' }).expect(200);
    expect(denied.body).toEqual({
      allowed: false,
      layer: 'policy',
      rule: 'tools.agentToAgent.allow: no pattern matches "main"',
      message: DENIED,
    });
    // the sandbox still wins over an enabled policy
    expect((await check({ from: 'sandy', to: 'support' }).expect(200)).body).toMatchObject({ allowed: false, layer: 'visibility' });
  });
});
