import { XMLValidator } from 'fast-xml-parser';
import request from 'supertest';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { largeTopologyConfig } from '../support/topology-fixture';

const HERMES = 'hermes-inbound-token-0123456789abcdef';
const VIEWER = 'topology-viewer-token-0123456789';
const OPERATOR = 'topology-operator-token-0123456789';
const ADMIN = 'topology-admin-token-0123456789';
const SUPPORT_NAME = 'Support <Desk> & "Co"';

/**
 * Four agents (one sandboxed), bindings on three channels (one shadowed), allow patterns, two memory grants, peers in
 * and out, MCP servers granted by tool policies (one disabled; never started: the topology reads the config).
 */
const FIXTURE = `{
  gateway: { admin: { tokens: [
    { name: "v", token: "${VIEWER}", role: "viewer" },
    { name: "o", token: "${OPERATOR}", role: "operator" },
    { name: "a", token: "${ADMIN}", role: "admin" },
  ] } },
  agents: { list: [
    { id: "main", workspace: "~/ws-main", tools: { allow: ["mcp:files:*", "mcp:wiki:search"] }, memorySearch: { qmd: { extraCollections: [{ path: "~/shared", name: "shared-docs" }] } } },
    { id: "support", workspace: "~/ws-support", identity: { name: ${JSON.stringify(SUPPORT_NAME)} }, tools: { allow: ["mcp:*"], deny: ["mcp:files:*"] },
      memorySearch: { qmd: { extraCollections: [{ path: "~/ws-expert/notes", name: "expert-notes" }] } } },
    { id: "expert", workspace: "~/ws-expert" },
    { id: "sandy", workspace: "~/ws-sandy", sandbox: { mode: "all" } },
  ] },
  bindings: [
    { agentId: "support", match: { channel: "http", accountId: "ops" } },
    { agentId: "expert", match: { channel: "whatsapp", accountId: "*" } },
    { agentId: "support", match: { channel: "a2a", peer: { kind: "direct", id: "hermes" } } },
    { agentId: "expert", match: { channel: "http", accountId: "ops" } },
  ],
  tools: { agentToAgent: { enabled: true, allow: ["support", "exp*"] }, sessions: { visibility: "all" } },
  memory: { backend: "qmd", embeddings: { provider: "none" } },
  mcp: { servers: {
    files: { command: "/opt/mcp/bin/mcp-server-filesystem", args: ["/srv/docs"], env: { FILES_SECRET: "files-env-secret-0123456789" } },
    wiki: { url: "https://wiki.example.com/mcp?key=wiki-url-secret-0123456789", headers: { Authorization: "Bearer wiki-header-secret-0123456789" } },
    off: { command: "mcp-server-off", enabled: false },
  } },
  channels: {
    http: { enabled: true, accounts: { ops: { token: "ops-account-token-0123456789abcdef" } } },
    a2a: { enabled: true, exposeAgents: ["support", "expert"], peers: {
      hermes: { token: "${HERMES}" },
      iris: { token: "iris-inbound-token-0123456789abcdef", url: "http://127.0.0.1:9/a2a/v1", outboundToken: "iris-outbound-token-0123456789abcdef" },
    } },
  },
}`;

interface Edge {
  id: string;
  kind: string;
  allowed?: boolean;
  layer?: string | null;
  rule?: string;
  traffic?: number;
}

/** Where each drawn node stands in a Graphviz SVG: its DOT name → the position of its first text line. */
function nodePlaces(svg: string): Map<string, string> {
  const places = new Map<string, string>();
  for (const [, name, body] of svg.matchAll(/<g id="node\d+" class="node">\s*<title>([^<]*)<\/title>([\s\S]*?)<\/g>/g)) {
    const text = /<text[^>]* x="([-\d.]+)" y="([-\d.]+)"/.exec(body);
    if (text) places.set(name, `${text[1]},${text[2]}`);
  }
  return places;
}

/** supertest leaves image/svg+xml unread: collect the body as text. */
function svgOf(req: request.Test): request.Test {
  return req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
  });
}

function expectSvg(text: string): void {
  expect(XMLValidator.validate(text)).toBe(true);
  expect(text).toMatch(/<svg[\s>]/);
}

describe('GET /admin/topology (e2e)', () => {
  let gw: TestGateway;
  const as = (token: string) => ({
    get: (path: string) => request(gw.url).get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string) => request(gw.url).post(path).set('Authorization', `Bearer ${token}`),
  });

  beforeAll(async () => {
    gw = await startTestGateway(FIXTURE);
  });
  afterAll(() => gw.stop());

  it('answers the exact nodes and edges of the fixture', async () => {
    const res = await as(VIEWER).get('/admin/topology').expect(200);
    const shared = `${gw.dir}/shared`;
    expect(res.body.defaultAgentId).toBe('main');
    expect(res.body.nodes.map((n: { id: string; kind: string }) => `${n.kind} ${n.id}`).sort()).toEqual(
      [
        'channel channel:http',
        'account account:http:ops',
        'channel channel:a2a',
        'channel channel:whatsapp',
        'account account:a2a:default',
        'binding binding:0',
        'binding binding:1',
        'binding binding:2',
        'binding binding:3',
        'default-route route:default',
        'agent agent:main',
        'agent agent:support',
        'agent agent:expert',
        'agent agent:sandy',
        `directory directory:${shared}`,
        'peer-in a2a-in:hermes',
        'peer-in a2a-in:iris',
        'peer-out a2a-out:iris',
        'mcp-server mcp:files',
        'mcp-server mcp:wiki',
        'mcp-server mcp:off',
      ].sort(),
    );
    expect(res.body.edges.map((e: Edge) => e.id).sort()).toEqual(
      [
        'route:account:http:ops->binding:0',
        'route:account:http:ops->binding:3',
        'route:channel:whatsapp->binding:1',
        'route:account:a2a:default->binding:2',
        'route:channel:http->route:default',
        'route:channel:a2a->route:default',
        'route:channel:whatsapp->route:default',
        'binding:binding:0->agent:support',
        'binding:binding:1->agent:expert',
        'binding:binding:2->agent:support',
        'binding:binding:3->agent:expert',
        'binding:route:default->agent:main',
        'agent-to-agent:agent:support->agent:expert',
        'agent-to-agent:agent:expert->agent:support',
        `memory:agent:main->directory:${shared}#shared-docs`,
        'memory:agent:support->agent:expert#expert-notes',
        'a2a-in:a2a-in:hermes->agent:support',
        'a2a-in:a2a-in:iris->agent:support',
        'a2a-out:agent:main->a2a-out:iris',
        'a2a-out:agent:support->a2a-out:iris',
        'a2a-out:agent:expert->a2a-out:iris',
        // The grants of the tool policies; support's deny takes every tool of files; nobody's arrow goes to a disabled server.
        'mcp:agent:main->mcp:files',
        'mcp:agent:main->mcp:wiki',
        'mcp:agent:support->mcp:wiki',
      ].sort(),
    );
    const node = (id: string) => res.body.nodes.find((n: { id: string }) => n.id === id);
    expect(node('binding:3')).toMatchObject({ tier: 'accountId', shadowedBy: 0, match: { channel: 'http', accountId: 'ops' } });
    expect(node('agent:support')).toMatchObject({ label: `${SUPPORT_NAME} (support)`, exposed: true, default: false });
    expect(node('agent:sandy')).toMatchObject({ sandboxed: true, exposed: false });
    expect(node('a2a-out:iris')).toEqual({
      id: 'a2a-out:iris',
      kind: 'peer-out',
      label: 'iris http://127.0.0.1:9/a2a/v1',
      peer: 'iris',
      url: 'http://127.0.0.1:9/a2a/v1',
    });
    expect(JSON.stringify(res.body)).not.toContain('iris-outbound-token');
    expect(node('mcp:wiki')).toEqual({
      id: 'mcp:wiki',
      kind: 'mcp-server',
      label: 'wiki (streamable-http: wiki.example.com)',
      server: 'wiki',
      transport: 'streamable-http',
      endpoint: 'wiki.example.com',
    });
    expect(node('mcp:files')).toMatchObject({ label: 'files (stdio: mcp-server-filesystem)', endpoint: 'mcp-server-filesystem' });
    expect(node('mcp:off')).toMatchObject({ refusal: 'disabled' });
    expect(res.body.edges.find((e: Edge) => e.id === 'mcp:agent:main->mcp:wiki')).toMatchObject({ grants: ['mcp:wiki:search'] });
    expect(res.body.edges.find((e: Edge) => e.id === 'mcp:agent:support->mcp:wiki')).toMatchObject({ grants: ['mcp:*'] });
    // Neither the URL's query, the headers, the env nor the arguments of a server show.
    expect(JSON.stringify(res.body)).not.toMatch(/secret-0123456789|\/srv\/docs|\/opt\/mcp/);
    expect(res.body.edges.find((e: Edge) => e.id === 'agent-to-agent:agent:support->agent:expert')).toMatchObject({
      allowed: true,
      layer: null,
      rule: expect.stringContaining('"exp*" matched expert'),
    });
    expect(res.body.traffic).toMatchObject({ window: '1h', sessionsSend: [], a2aTasks: [] });
  });

  it('with denied=true adds every refused pair with the layer and rule /admin/policy/check gives', async () => {
    const res = await as(VIEWER).get('/admin/topology?denied=true').expect(200);
    const pairs = res.body.edges.filter((e: Edge) => e.kind === 'agent-to-agent');
    expect(pairs).toHaveLength(12);
    for (const e of pairs.filter((p: Edge) => !p.allowed)) {
      const [from, to] = e.id
        .replace('agent-to-agent:', '')
        .split('->')
        .map((s: string) => s.replace('agent:', ''));
      const check = await as(VIEWER).get('/admin/policy/check').query({ from, to }).expect(200);
      expect({ id: e.id, layer: e.layer, rule: e.rule }).toEqual({ id: e.id, layer: check.body.layer, rule: check.body.rule });
    }
    expect(pairs.find((e: Edge) => e.id === 'agent-to-agent:agent:sandy->agent:expert')).toMatchObject({
      allowed: false,
      layer: 'visibility',
    });
    expect(pairs.find((e: Edge) => e.id === 'agent-to-agent:agent:main->agent:support')).toMatchObject({ allowed: false, layer: 'policy' });
  });

  it('draws the SVG with every agent, labels escaped, and a legend', async () => {
    const res = await svgOf(as(VIEWER).get('/admin/topology.svg')).expect(200);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    const svg = res.body as string;
    expectSvg(svg);
    for (const id of ['main', 'expert', 'sandy']) expect(svg).toContain(`>${id}</text>`);
    expect(svg).toContain('Support &lt;Desk&gt; &amp; &quot;Co&quot; (support)');
    expect(svg).not.toContain('<Desk>');
    expect(svg).toContain('binding → agent'); // the legend
    expect(svg).toContain('agent → MCP server it may use');
    expect(svg).toContain('>MCP servers</text>');
    expect(svg).toContain('wiki (streamable&#45;http: wiki.example.com)');
    expect(svg).not.toMatch(/secret-0123456789/);
    expect(svg).not.toContain('added by the plan'); // plan entries only on a plan's pictures
    expect(svg).toContain('2 agents: every pair allowed');
  });

  it('refuses bad query parameters with a 400 naming them, and keeps serving', async () => {
    const bad: Array<[string, string]> = [
      ['window=0h', 'window must be a duration from 1m to 7d'],
      ['window=8d', '8d is longer than 7d'],
      ['window=1w', 'window must be a duration'],
      ['window=1h&window=2h', 'window must be a duration'],
      ['denied=yes', 'denied must be true or false'],
      ['color=red', 'color'],
    ];
    for (const path of ['/admin/topology', '/admin/topology.svg']) {
      for (const [query, detail] of bad) {
        const res = await as(VIEWER).get(`${path}?${query}`).expect(400);
        expect({ query, detail: JSON.stringify(res.body) }).toEqual({ query, detail: expect.stringContaining(detail) });
      }
    }
    await as(VIEWER).get('/admin/topology?window=7d&denied=false').expect(200);
  });

  it('lets a viewer read both pictures, keeps the plans to admins, and refuses callers without a token', async () => {
    await request(gw.url).get('/admin/topology').expect(401);
    await request(gw.url).get('/admin/topology.svg').expect(401);
    await as(VIEWER).post('/admin/topology/plan').send({ mergePatch: {} }).expect(403);
    await as(OPERATOR).post('/admin/topology/plan.svg').send({ mergePatch: {} }).expect(403);
    await as(ADMIN).post('/admin/topology/plan').send({ mergePatch: {} }).expect(200);
  });

  it('weighs edges with a real sessions_send and a real A2A SendMessage', async () => {
    const sent = await as(OPERATOR)
      .post(`/admin/sessions/${encodeURIComponent('agent:support:main')}/send`)
      .send({ agentId: 'expert', message: 'how is the deploy?', timeoutSeconds: 10 })
      .expect(200);
    expect(sent.body.status).toBe('ok');
    const answer = await a2aRpc(gw.url, HERMES, 'SendMessage', userMessage('status please', 'ctx-topology'));
    expect(answer.result.task.status.state).toBe('TASK_STATE_COMPLETED');

    const res = await as(VIEWER).get('/admin/topology?window=15m').expect(200);
    const edge = (id: string) => res.body.edges.find((e: Edge) => e.id === id);
    expect(edge('agent-to-agent:agent:support->agent:expert').traffic).toBe(1);
    expect(edge('agent-to-agent:agent:expert->agent:support').traffic).toBeUndefined();
    expect(edge('a2a-in:a2a-in:hermes->agent:support').traffic).toBe(1);
    expect(edge('a2a-in:a2a-in:iris->agent:support').traffic).toBeUndefined();
    expect(res.body.traffic.sessionsSend).toEqual([{ from: 'support', to: 'expert', count: 1 }]);
    expect(res.body.traffic.a2aTasks).toEqual([{ peer: 'hermes', agentId: 'support', count: 1 }]);
    const svg = (await svgOf(as(VIEWER).get('/admin/topology.svg?window=15m')).expect(200)).body as string;
    expect(svg).toContain('1 sessions_send');
    expect(svg).toContain('1 tasks');
  });

  describe('plans', () => {
    const patch = {
      mergePatch: {
        tools: { agentToAgent: { allow: ['*'] } },
        bindings: [{ agentId: 'expert', match: { channel: 'http', accountId: 'ops' } }],
      },
    };

    it('POST /admin/topology/plan answers the edges a candidate adds and removes', async () => {
      const res = await as(ADMIN).post('/admin/topology/plan').send(patch).expect(200);
      expect(res.body).toMatchObject({ valid: true, errors: [], candidateRevision: expect.any(String) });
      const ids = (edges: Edge[]) => edges.map((e) => e.id).sort();
      expect(ids(res.body.diff.edgesAdded)).toEqual(
        [
          'agent-to-agent:agent:main->agent:expert',
          'agent-to-agent:agent:main->agent:support',
          'agent-to-agent:agent:expert->agent:main',
          'agent-to-agent:agent:support->agent:main',
          // a sandboxed agent sees no one else, but the others may reach it once the allow list admits it
          'agent-to-agent:agent:main->agent:sandy',
          'agent-to-agent:agent:support->agent:sandy',
          'agent-to-agent:agent:expert->agent:sandy',
          'binding:binding:0->agent:expert',
        ].sort(),
      );
      expect(ids(res.body.diff.edgesRemoved)).toEqual(
        [
          'binding:binding:0->agent:support',
          'binding:binding:1->agent:expert',
          'binding:binding:2->agent:support',
          'binding:binding:3->agent:expert',
          'route:account:a2a:default->binding:2',
          'route:account:http:ops->binding:3',
          'route:channel:whatsapp->binding:1',
          'route:channel:whatsapp->route:default', // no binding names whatsapp any more: the channel is gone
        ].sort(),
      );
      // hermes's bare-peer binding is gone, yet its a2a-in edge stays: the default agent is clamped to the first exposed one
      expect(res.body.diff.edgesRemoved.some((e: Edge) => e.kind === 'a2a-in')).toBe(false);
      expect(res.body.diff.nodesRemoved.map((n: { id: string }) => n.id).sort()).toEqual(
        ['account:a2a:default', 'binding:1', 'binding:2', 'binding:3', 'channel:whatsapp'].sort(),
      );
    });

    it('POST /admin/topology/plan.svg draws the candidate with added and removed edges marked', async () => {
      const res = await svgOf(as(ADMIN).post('/admin/topology/plan.svg').send(patch)).expect(200);
      const svg = res.body as string;
      expectSvg(svg);
      expect(svg).toContain('stroke="#2ca02c"'); // added
      expect(svg).toContain('stroke="#d62728"'); // removed
      expect(svg).toContain('stroke-dasharray'); // removed edges are dashed
      expect(svg).toContain('#1 whatsapp: account *'); // a removed binding is still drawn
    });

    it('draws the before side in the layout of the after side: every node in one place, what the plan adds left blank', async () => {
      const after = (await svgOf(as(ADMIN).post('/admin/topology/plan.svg?side=after').send(patch)).expect(200)).body as string;
      const before = (await svgOf(as(ADMIN).post('/admin/topology/plan.svg?side=before').send(patch)).expect(200)).body as string;
      expectSvg(before);
      expect(after).toBe((await svgOf(as(ADMIN).post('/admin/topology/plan.svg').send(patch)).expect(200)).body); // after is the default
      const placesAfter = nodePlaces(after);
      const placesBefore = nodePlaces(before);
      expect(placesAfter.size).toBeGreaterThan(10);
      // The nodes the plan removes (binding #1 whatsapp, the whatsapp channel, …) are drawn on both sides, each in one place.
      for (const [node, place] of placesBefore) expect({ node, place }).toEqual({ node, place: placesAfter.get(node) });
      expect(before).toContain('#1 whatsapp: account *');
      // Before the change nothing is marked removed, and what the plan adds takes its place unseen.
      expect(before).not.toContain('stroke="#d62728"');
      expect(after).toContain('stroke="#d62728"');
      const added = 'xlink:title="binding:binding:0&#45;&gt;agent:expert"';
      expect(after).toContain(added);
      expect(before).not.toContain(added);
      expect(before).toContain('before: revision');
      // A compact legend: the plan's entries, a few rows, no legend box among the nodes.
      for (const svg of [before, after]) {
        expect(svg).toContain('added by the plan');
        expect(svg).not.toContain('cluster_legend');
      }
      expect((await as(ADMIN).post('/admin/topology/plan.svg?side=during').send(patch).expect(400)).body.detail).toContain(
        'side must be before or after',
      );
    });

    it('answers an invalid candidate with valid: false (JSON) and a 422 listing the errors (SVG); bad bodies are 400', async () => {
      // An unknown top-level key: a binding to an unknown agent is no longer invalid (it falls to the default agent).
      const invalid = { mergePatch: { ghost: true } };
      const plan = await as(ADMIN).post('/admin/topology/plan').send(invalid).expect(200);
      expect(plan.body).toMatchObject({
        valid: false,
        candidateRevision: null,
        diff: null,
        errors: [expect.objectContaining({ path: 'ghost', message: expect.stringContaining('unknown key') })],
      });
      const svg = await as(ADMIN).post('/admin/topology/plan.svg').send(invalid).expect(422);
      expect(svg.body.detail).toContain('ghost');
      for (const path of ['/admin/topology/plan', '/admin/topology/plan.svg']) {
        expect((await as(ADMIN).post(path).send({}).expect(400)).body.detail).toContain('send document');
        expect((await as(ADMIN).post(path).send({ mergePatch: [] }).expect(400)).body.detail).toContain('mergePatch must be a JSON object');
        expect((await as(ADMIN).post(path).send({ document: '{ not json5' }).expect(400)).body.detail).toContain(
          'document is not valid JSON5',
        );
        await as(ADMIN).post(path).send({ mergePatch: {}, extra: 1 }).expect(400);
      }
      await as(VIEWER).get('/admin/topology').expect(200);
    });
  });

  it('is documented in the OpenAPI document with the roles', async () => {
    const doc = (await as(VIEWER).get('/docs-json').expect(200)).body;
    expect(doc.paths['/admin/topology'].get['x-clawgate-role']).toBe('viewer');
    expect(doc.paths['/admin/topology.svg'].get['x-clawgate-role']).toBe('viewer');
    expect(doc.paths['/admin/topology/plan'].post['x-clawgate-role']).toBe('admin');
    expect(doc.paths['/admin/topology/plan.svg'].post['x-clawgate-role']).toBe('admin');
    expect(doc.paths['/admin/topology'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['denied', 'window']);
  });
});

describe('GET /admin/topology.svg at 50 agents (e2e)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(largeTopologyConfig(50));
  });
  afterAll(() => gw.stop());

  it('renders every agent, grouped where the layers allow whole teams', async () => {
    const svg = (await svgOf(request(gw.url).get('/admin/topology.svg?denied=true')).expect(200)).body as string;
    expectSvg(svg);
    const graph = (await request(gw.url).get('/admin/topology').expect(200)).body;
    const agents = graph.nodes.filter((n: { kind: string }) => n.kind === 'agent');
    expect(agents).toHaveLength(50);
    for (const a of agents)
      expect(svg).toContain(a.label.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/-/g, '&#45;'));
    expect(svg).toMatch(/\d+ agents: every pair allowed/);
  });
});
