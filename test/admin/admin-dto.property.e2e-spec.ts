import fc from 'fast-check';
import { MAX_BODY_DEPTH } from '../../src/bootstrap';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { PROPERTY_SEED, propertyParameters, propertyRuns, propertyTimeout } from '../support/property-runs';
import { API_CLIENT } from '../support/admin-client';

/**
 * Property: no body (or query) an authenticated caller sends to an admin endpoint that takes input makes
 * the gateway fail — every answer is below 500, and every refusal is problem+json. Bodies range from
 * well-formed DTOs through DTO-shaped objects with fields of any JSON type, to any JSON value, text that is
 * not JSON, and nesting far deeper than anything needs. A real gateway, real HTTP, writes with a current,
 * stale, garbage or missing If-Match. Seeded and bounded: see support/property-runs.ts.
 */

const ADMIN = 'property-admin-token-7c1f3b9e';
const RUNS = propertyRuns(60);
const TIMEOUT_MS = propertyTimeout(60);

interface Endpoint {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  /** Path params to pick from (arbitrary strings are added). */
  path: fc.Arbitrary<string>;
  /** Well-formed bodies (or query pairs), made wrong in every way by the generators below. */
  fields: Record<string, fc.Arbitrary<unknown>>;
  /** Fields a well-formed input always has. */
  required?: string[];
  query?: boolean;
  write?: boolean;
}

const anyJson = fc.jsonValue({ maxDepth: 3, stringUnit: 'grapheme' });
const anyText = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary', maxLength: 40 }));
const segment = (...known: string[]) =>
  fc.oneof(fc.constantFrom(...known), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 })).map(encodeURIComponent);
const agentId = segment('main', 'other', 'MAIN', 'nope', '..', '%2e%2e', 'constructor', '__proto__');
const peerKind = fc.oneof(fc.constantFrom('direct', 'group', 'channel'), anyJson);

const ENDPOINTS: Endpoint[] = [
  {
    name: 'POST /admin/agents',
    method: 'POST',
    path: fc.constant('/admin/agents'),
    write: true,
    required: ['id'],
    fields: {
      id: fc.oneof(fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/), anyText),
      name: anyText,
      workspace: anyText,
      model: fc.oneof(fc.constantFrom('echo/default', 'nope', 'a/b/c'), anyText),
      default: fc.boolean(),
      identity: fc.record({ name: anyText, emoji: anyText, avatar: anyText }, { requiredKeys: [] }),
      sandbox: fc.record(
        { mode: fc.constantFrom('off', 'all'), scope: fc.constantFrom('session', 'agent', 'shared') },
        { requiredKeys: [] },
      ),
      tools: fc.record({ allow: fc.array(anyText), deny: fc.array(anyText) }, { requiredKeys: [] }),
    },
  },
  {
    name: 'PATCH /admin/agents/:id',
    method: 'PATCH',
    path: agentId.map((id) => `/admin/agents/${id}`),
    write: true,
    fields: {
      name: anyText,
      model: fc.oneof(fc.constant('echo/default'), anyText),
      default: fc.boolean(),
      identity: fc.record({ name: anyText, emoji: anyText }, { requiredKeys: [] }),
      tools: fc.record({ allow: fc.array(anyText), deny: fc.array(anyText) }, { requiredKeys: [] }),
      sandbox: fc.record({ mode: fc.constantFrom('off', 'all') }, { requiredKeys: [] }),
    },
  },
  {
    name: 'PUT /admin/agents/:id/identity',
    method: 'PUT',
    path: agentId.map((id) => `/admin/agents/${id}/identity`),
    write: true,
    fields: { name: anyText, emoji: anyText, avatar: anyText },
  },
  {
    name: 'POST /admin/agents/:id/bindings',
    method: 'POST',
    path: agentId.map((id) => `/admin/agents/${id}/bindings`),
    write: true,
    required: ['match'],
    fields: {
      match: fc.record(
        {
          channel: fc.oneof(fc.constantFrom('http', 'a2a', 'slack'), anyText),
          accountId: fc.oneof(fc.constantFrom('*', 'default', 'work'), anyText),
          peer: fc.record({ kind: peerKind, id: anyText }, { requiredKeys: [] }),
          guildId: anyText,
          teamId: anyText,
        },
        { requiredKeys: ['channel'] },
      ),
    },
  },
  {
    name: 'POST /admin/routing/resolve',
    method: 'POST',
    path: fc.constant('/admin/routing/resolve'),
    required: ['channel'],
    fields: {
      channel: fc.oneof(fc.constantFrom('http', 'a2a'), anyText),
      accountId: anyText,
      peer: fc.record({ kind: peerKind, id: anyText }, { requiredKeys: [] }),
      guildId: anyText,
      teamId: anyText,
      threadId: anyText,
    },
  },
  {
    name: 'GET /admin/policy/check',
    method: 'GET',
    path: fc.constant('/admin/policy/check'),
    query: true,
    required: ['from', 'to'],
    fields: {
      from: fc.oneof(fc.constantFrom('main', 'other'), anyText),
      to: fc.oneof(fc.constantFrom('main', 'other'), anyText),
      fromSession: fc.oneof(fc.constantFrom('agent:main:main', 'agent:other:x'), anyText),
      toSession: anyText,
    },
  },
  {
    name: 'GET /admin/topology (and .svg)',
    method: 'GET',
    path: fc.constantFrom('/admin/topology', '/admin/topology.svg'),
    query: true,
    fields: {
      window: fc.oneof(fc.constantFrom('1h', '15m', '7d', '8d', '0h', '1w'), anyText),
      denied: fc.oneof(fc.constantFrom('true', 'false'), anyText),
    },
  },
  {
    name: 'GET /admin/agents/:id/memory/search',
    method: 'GET',
    path: agentId.map((id) => `/admin/agents/${id}/memory/search`),
    query: true,
    required: ['q'],
    fields: {
      q: anyText,
      limit: fc.oneof(fc.integer({ min: -5, max: 200 }).map(String), anyText),
      minScore: fc.oneof(fc.double().map(String), anyText),
    },
  },
  {
    name: 'POST /admin/sessions/:key/send',
    method: 'POST',
    path: segment('agent:main:main', 'agent:other:main', 'agent:nope:main', 'main', 'agent::', 'agent:main').map(
      (k) => `/admin/sessions/${k}/send`,
    ),
    required: ['message'],
    fields: {
      sessionKey: fc.oneof(fc.constantFrom('agent:other:main', 'agent:main:main'), anyText),
      label: anyText,
      agentId: fc.oneof(fc.constantFrom('main', 'other'), anyText),
      message: anyText,
      timeoutSeconds: fc.oneof(fc.constantFrom(0, 1), anyJson),
    },
  },
  {
    name: 'POST /admin/sessions/:key/spawn',
    method: 'POST',
    path: segment('agent:main:main', 'agent:other:main', 'agent:nope:main', 'x').map((k) => `/admin/sessions/${k}/spawn`),
    required: ['task'],
    fields: { task: anyText, label: anyText, agentId: fc.oneof(fc.constantFrom('main', 'other'), anyText) },
  },
  {
    name: 'POST /admin/a2a/peers/:name/send',
    method: 'POST',
    path: segment('hermes', 'HERMES', 'nope', 'constructor').map((n) => `/admin/a2a/peers/${n}/send`),
    required: ['text'],
    fields: { text: anyText, wait: fc.oneof(fc.boolean(), anyJson) },
  },
];

/** A body from well-formed to anything: DTO-shaped with any field wrong or unknown, any JSON, or raw text. */
function bodies(e: Endpoint): fc.Arbitrary<{ text: string; type: string }> {
  const names = Object.keys(e.fields);
  const wellFormed = fc.record(e.fields, { requiredKeys: e.required ?? [] });
  const mistyped = fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string()), anyJson, { maxKeys: 6 });
  const asJson = fc.oneof(wellFormed, wellFormed, mistyped, anyJson).map((v) => ({ text: JSON.stringify(v), type: 'application/json' }));
  const deep = fc
    .tuple(fc.integer({ min: MAX_BODY_DEPTH - 2, max: 60_000 }), fc.constantFrom('[', '{"a":'))
    .map(([depth, open]) => ({ text: `${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`, type: 'application/json' }));
  const raw = fc
    .tuple(
      fc.oneof(fc.string(), fc.constantFrom('{"a":', '[1,]', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', '1e400', '')),
      fc.constantFrom('application/json', 'text/plain', 'application/json5', 'application/x-www-form-urlencoded'),
    )
    .map(([text, type]) => ({ text, type }));
  return fc.oneof({ weight: 6, arbitrary: asJson }, { weight: 1, arbitrary: deep }, { weight: 2, arbitrary: raw });
}

/** A query string: known and unknown names, repeated names, values of any text, or raw bytes of a query. */
function queries(e: Endpoint): fc.Arbitrary<string> {
  const names = fc.oneof(
    fc.constantFrom(...Object.keys(e.fields)),
    fc.string({ maxLength: 8 }),
    fc.constantFrom('a[b]', '__proto__', 'constructor'),
  );
  const text = (v: unknown): string => (typeof v === 'string' ? v : String(JSON.stringify(v)));
  const value = fc.oneof(...Object.values(e.fields).map((a) => a.map(text)), fc.string());
  const wellFormed = fc
    .record(e.fields, { requiredKeys: e.required ?? [] })
    .map((r) => new URLSearchParams(Object.entries(r).map(([k, v]): [string, string] => [k, text(v)])).toString());
  const pairs = fc.array(fc.tuple(names, value), { maxLength: 6 }).map((p) => new URLSearchParams(p).toString());
  const raw = fc.oneof(fc.string(), fc.constantFrom('q=%zz', 'q=%', 'q[]=a&q[]=b', 'q[a]=1', 'limit=1e400', 'q=a&q=b'));
  return fc.oneof({ weight: 3, arbitrary: wellFormed }, { weight: 3, arbitrary: pairs }, { weight: 1, arbitrary: raw });
}

const CONFIG = `{
  gateway: { reload: { mode: "off" }, admin: { tokens: [{ name: "root", token: "${ADMIN}", role: "admin" }] } },
  agents: { list: [{ id: "main", default: true }, { id: "other" }] },
  memory: { embeddings: { provider: "none" } },
  channels: { a2a: { enabled: true, peers: { hermes: { token: "property-hermes-token-0123" } } } },
}`;
/** Successful writes after which the config is put back, so a long run does not grow it without bound. */
const WRITES_PER_RESET = 50;

describe(`admin endpoints never answer 5xx to any input (property, ${RUNS} runs per endpoint, seed ${PROPERTY_SEED})`, () => {
  let gw: TestGateway;
  let revision = '';
  let writes = 0;

  beforeAll(async () => {
    gw = await startTestGateway(CONFIG);
    revision = await currentRevision();
  });
  afterAll(() => gw.stop());

  async function currentRevision(): Promise<string> {
    const res = await fetch(`${gw.url}/admin/config`, { headers: { Authorization: `Bearer ${ADMIN}` } });
    await res.arrayBuffer();
    return res.headers.get('etag') ?? '';
  }

  async function call(e: Endpoint, path: string, input: { text: string; type: string } | string, ifMatch: string): Promise<void> {
    // A client of the API (not a form): whatever the body's type, it reaches the parsers and the DTOs.
    const headers: Record<string, string> = { Authorization: `Bearer ${ADMIN}`, ...API_CLIENT };
    if (e.write && ifMatch !== 'missing') {
      headers['If-Match'] = ifMatch === 'current' ? revision : ifMatch === 'stale' ? '"0123456789ab"' : ifMatch;
    }
    let url = `${gw.url}${path}`;
    let body: string | undefined;
    if (typeof input === 'string') url += `?${input}`;
    else {
      headers['Content-Type'] = input.type;
      body = input.text;
    }
    const res = await fetch(url, { method: e.method, headers, body });
    const text = await res.text();
    const answer = `${e.method} ${path} -> ${res.status} ${text.slice(0, 300)}`;
    expect({ answer, ok: res.status < 500 }).toEqual({ answer, ok: true });
    if (res.status >= 400) expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const etag = res.headers.get('etag');
    if (res.ok && etag) revision = etag;
    if (res.status === 412) revision = await currentRevision();
    if (e.write && res.ok && ++writes % WRITES_PER_RESET === 0) await reset();
  }

  async function reset(): Promise<void> {
    await gw.writeConfig(CONFIG);
    const res = await fetch(`${gw.url}/admin/config/reload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN}`, ...API_CLIENT },
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    revision = await currentRevision();
  }

  it('answers a body nested far deeper than the limit with 400 naming it, on every endpoint with a body', async () => {
    const deep = `{"a":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    for (const e of ENDPOINTS.filter((x) => !x.query)) {
      const path = fc.sample(e.path, { numRuns: 1, seed: PROPERTY_SEED })[0];
      const res = await fetch(`${gw.url}${path}`, {
        method: e.method,
        headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json', 'If-Match': revision },
        body: deep,
      });
      expect([e.name, res.status, res.headers.get('content-type')]).toEqual([
        e.name,
        400,
        expect.stringMatching(/^application\/problem\+json/),
      ]);
      expect(((await res.json()) as { detail: string }).detail).toBe(`request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
    }
  });

  it.each(ENDPOINTS.map((e) => [e.name, e] as const))(
    '%s',
    async (_name, e) => {
      const input: fc.Arbitrary<{ text: string; type: string } | string> = e.query ? queries(e) : bodies(e);
      const ifMatch = fc.constantFrom('current', 'current', 'stale', 'missing', '*', 'W/"x"');
      await fc.assert(
        fc.asyncProperty(e.path, input, ifMatch, (path, i, m) => call(e, path, i, m)),
        propertyParameters(60),
      );
    },
    TIMEOUT_MS,
  );
});
