import fc from 'fast-check';
import { A2A_LEGACY_METHODS, A2A_METHODS } from '../../src/common/a2a-protocol';
import { MAX_BATCH_ENTRIES } from '../../src/modules/a2a-channel/protocol/limits-and-messages';
import { implementedA2aMethods } from '../../src/modules/a2a-channel/protocol/methods';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { PROPERTY_SEED, propertyParameters, propertyRuns, propertyTimeout } from '../support/property-runs';

/**
 * Property: whatever an authenticated peer posts to /a2a/v1 — arbitrary JSON, requests with arbitrary
 * methods, params and ids, batches, bytes that are not JSON at all — the answer is HTTP 200 with either
 * nothing (only notifications) or well-formed JSON-RPC 2.0: `jsonrpc: "2.0"`, the request's id echoed
 * (null when it could not be read), and exactly one of `result` or an `error` with an integer code and a
 * string message; a batch gets one response per answered entry, in order. A real gateway (echo model,
 * real task store on a temp dir), real HTTP. Seeded and bounded: see support/property-runs.ts.
 */

const TOKEN = 'property-peer-token-4b7e9a2c';
const RUNS = propertyRuns(300);
const TIMEOUT_MS = propertyTimeout(300);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What the endpoint must answer for one entry: nothing (a notification), or a response with this id. */
type Expected = { answered: false } | { answered: true; id: Json };

/** The JSON-RPC rules, written independently of the server: which entries are answered, with which id. */
function expectedFor(entry: unknown): Expected {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return { answered: true, id: null };
  const e = entry as Record<string, unknown>;
  const hasId = Object.prototype.hasOwnProperty.call(e, 'id');
  const validId = e.id === null || typeof e.id === 'string' || (typeof e.id === 'number' && Number.isFinite(e.id));
  if (hasId && !validId) return { answered: true, id: null };
  const id = hasId ? (e.id as Json) : null;
  const paramsOk = e.params === undefined || (typeof e.params === 'object' && e.params !== null);
  if (e.jsonrpc !== '2.0' || typeof e.method !== 'string' || !paramsOk) return { answered: true, id };
  return hasId ? { answered: true, id } : { answered: false };
}

const KNOWN_CODES = new Set([-32700, -32600, -32601, -32602, -32000, -32001, -32002, -32003, -32004, -32005, -32009]);

/**
 * Throws unless `r` is one well-formed response carrying `id`. With rate limiting off, -32000 is only
 * the answer to a batch over the limit (`serverError`): anywhere else it would be an internal failure.
 */
function checkResponse(r: unknown, id: Json, serverError = false): void {
  expect(typeof r === 'object' && r !== null && !Array.isArray(r)).toBe(true);
  const o = r as Record<string, unknown>;
  expect(o.jsonrpc).toBe('2.0');
  // Compared as JSON: that is what went over the wire (-0 is sent as 0).
  expect(JSON.stringify(o.id)).toBe(JSON.stringify(id));
  const keys = Object.keys(o).sort();
  if ('error' in o) {
    expect(keys).toEqual(['error', 'id', 'jsonrpc']);
    const error = o.error as Record<string, unknown>;
    expect(Number.isInteger(error.code)).toBe(true);
    expect(KNOWN_CODES.has(error.code as number)).toBe(true);
    expect(error.code === -32000).toBe(serverError);
    expect(typeof error.message).toBe('string');
    expect(Object.keys(error).every((k) => ['code', 'message', 'data'].includes(k))).toBe(true);
  } else {
    expect(keys).toEqual(['id', 'jsonrpc', 'result']);
    expect(o.result).not.toBeUndefined();
  }
}

/** The streaming methods answer a valid call with an event stream, not one JSON body: a2a-streaming.e2e-spec.ts holds them. */
const STREAMING = new Set<string>([
  A2A_METHODS.sendStreamingMessage,
  A2A_METHODS.subscribeToTask,
  A2A_LEGACY_METHODS.sendStreamingMessage,
  A2A_LEGACY_METHODS.subscribeToTask,
]);
const oneBodyMethods = implementedA2aMethods().filter((m) => !STREAMING.has(m));
const methods = fc.oneof(
  fc.constantFrom(...oneBodyMethods),
  fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', '', 'rpc.discover'),
  fc.string(),
  fc.string({ unit: 'binary' }),
);
const ids = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
);
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary', maxLength: 200 }));
/** Parts as peers send them, and as they should not. */
const part = fc.oneof(
  fc.record({ text }),
  fc.record({ kind: fc.constant('text'), text }),
  fc.record({ data: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({ file: fc.record({ uri: fc.string(), mimeType: fc.string() }, { requiredKeys: [] }) }),
  fc.record(
    {
      raw: fc.oneof(fc.base64String({ maxLength: 64 }), fc.string()),
      mediaType: fc.oneof(fc.constantFrom('text/plain', 'image/gif'), fc.string()),
    },
    { requiredKeys: ['raw'] },
  ),
  fc.record({ url: fc.oneof(fc.webUrl(), fc.string()), filename: fc.string() }, { requiredKeys: ['url'] }),
  fc.jsonValue({ maxDepth: 2 }),
);
/** SendMessage params from valid to subtly wrong, so the task path runs as well as the rejections. */
const sendParams = fc.record(
  {
    message: fc.oneof(
      fc.record(
        {
          messageId: fc.oneof(fc.uuid(), fc.string(), fc.jsonValue({ maxDepth: 1 })),
          role: fc.oneof(fc.constantFrom('ROLE_USER', 'ROLE_AGENT', 'user', 'agent'), fc.jsonValue({ maxDepth: 1 })),
          parts: fc.oneof(fc.array(part, { maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })),
          contextId: fc.oneof(fc.stringMatching(/^[A-Za-z0-9._:-]{1,20}$/), fc.string(), fc.jsonValue({ maxDepth: 1 })),
          taskId: fc.oneof(fc.constant(''), fc.string()),
        },
        { requiredKeys: ['messageId', 'parts'] },
      ),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    configuration: fc.oneof(
      fc.record({ returnImmediately: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })) }, { requiredKeys: [] }),
      fc.record({ blocking: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })) }, { requiredKeys: [] }),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    metadata: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);
const getParams = fc.record(
  { id: fc.oneof(fc.uuid(), fc.string(), fc.jsonValue({ maxDepth: 1 })), historyLength: fc.jsonValue() },
  { requiredKeys: [] },
);
const params = fc.oneof(sendParams, getParams, fc.jsonValue({ maxDepth: 3 }));
/** Requests a conforming peer would send: the task path runs, not only the rejections. */
const goodSend = fc.record(
  {
    message: fc.record(
      {
        messageId: fc.uuid(),
        role: fc.constantFrom('ROLE_USER', 'user'),
        parts: fc.array(fc.record({ text }), { minLength: 1, maxLength: 3 }),
        contextId: fc.stringMatching(/^[A-Za-z0-9._:-]{1,20}$/),
      },
      { requiredKeys: ['messageId', 'role', 'parts'] },
    ),
    configuration: fc.record({ returnImmediately: fc.boolean() }),
  },
  { requiredKeys: ['message'] },
);
const goodRequest = fc.oneof(
  fc.record(
    {
      jsonrpc: fc.constant('2.0'),
      method: fc.constantFrom(A2A_METHODS.sendMessage, A2A_LEGACY_METHODS.sendMessage),
      params: goodSend,
      id: ids,
    },
    { requiredKeys: ['jsonrpc', 'method', 'params'] },
  ),
  fc.record(
    { jsonrpc: fc.constant('2.0'), method: fc.constantFrom(A2A_METHODS.getTask, A2A_LEGACY_METHODS.getTask), params: getParams, id: ids },
    { requiredKeys: ['jsonrpc', 'method', 'params'] },
  ),
);
/** One entry: conforming, request-shaped with any key missing or of the wrong type, or any JSON at all. */
const entry = fc.oneof(
  { weight: 4, arbitrary: goodRequest },
  {
    weight: 3,
    arbitrary: fc.record({ jsonrpc: fc.constant('2.0'), method: methods, params, id: ids }, { requiredKeys: ['jsonrpc', 'method'] }),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue({ maxDepth: 1 })),
        method: fc.oneof(methods, fc.jsonValue({ maxDepth: 1 })),
        params,
        id: ids,
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);
/**
 * A request whose params nest `depth` levels deep (a data part or the metadata), written as text: deeper
 * than recursive code (JSON.stringify, say) can walk, inside the 1 MiB limit.
 */
const deepRequest = fc
  .record({
    depth: fc.integer({ min: 1, max: 200_000 }),
    where: fc.constantFrom('data', 'metadata'),
    id: fc.option(fc.integer(), { nil: undefined }),
  })
  .map(({ depth, where, id }) => {
    const deep = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    const part = where === 'data' ? `{"data":${deep}}` : '{"text":"hi"}';
    const metadata = where === 'metadata' ? `,"metadata":${deep}` : '';
    const message = `{"messageId":"deep-${depth}","role":"ROLE_USER","parts":[${part}]}`;
    return `{"jsonrpc":"2.0",${id === undefined ? '' : `"id":${id},`}"method":"SendMessage","params":{"message":${message}${metadata}}}`;
  });

/** A whole body: an entry, a batch (up to a few past the limit), arbitrary JSON, bytes, or deep params. */
const body: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  { weight: 5, arbitrary: entry.map((e) => JSON.stringify(e)) },
  { weight: 3, arbitrary: fc.array(entry, { maxLength: MAX_BATCH_ENTRIES + 3 }).map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.array(deepRequest, { minLength: 1, maxLength: 2 }).map((r) => (r.length === 1 ? r[0] : `[${r.join(',')}]`)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('{"jsonrpc":"2.0","method":"GetTask","id":', '[{"jsonrpc":"2.0","id":', '{"id":'),
        fc.constantFrom('1e400', '-0', '1.5', '"x"', 'true', '{', '[]', '9007199254740993'),
        fc.constantFrom('}', ',"params":{}}', '}]', ''),
      )
      .map(([a, b, c]) => a + b + c),
  },
);

describe(`A2A JSON-RPC answers every request well-formed (property, ${RUNS} runs, seed ${PROPERTY_SEED})`, () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway(`{
      agents: { list: [{ id: "main" }] },
      channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { prober: { token: "${TOKEN}" } } } },
    }`);
  });
  afterAll(() => gw.stop());

  async function post(bytes: Buffer): Promise<{ status: number; text: string }> {
    const res = await fetch(`${gw.url}/a2a/v1`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: bytes,
    });
    return { status: res.status, text: await res.text() };
  }

  it(
    'answers nothing, or one well-formed response per answered entry',
    async () => {
      await fc.assert(
        fc.asyncProperty(body, async (sent) => {
          const bytes = Buffer.from(sent);
          const res = await post(bytes);
          expect(res.status).toBe(200);
          let payload: unknown;
          try {
            payload = JSON.parse(bytes.toString('utf8'));
          } catch {
            return checkResponse(JSON.parse(res.text), null);
          }
          if (!Array.isArray(payload)) {
            const expected = expectedFor(payload);
            if (!expected.answered) return expect(res.text).toBe('');
            return checkResponse(JSON.parse(res.text), expected.id);
          }
          // An empty or oversized batch is refused whole, with one response.
          if (payload.length === 0 || payload.length > MAX_BATCH_ENTRIES) {
            return checkResponse(JSON.parse(res.text), null, payload.length > MAX_BATCH_ENTRIES);
          }
          const answered = payload.map(expectedFor).filter((e): e is Extract<Expected, { answered: true }> => e.answered);
          if (!answered.length) return expect(res.text).toBe('');
          const responses = JSON.parse(res.text) as unknown[];
          expect(Array.isArray(responses)).toBe(true);
          expect(responses).toHaveLength(answered.length);
          responses.forEach((r, i) => checkResponse(r, answered[i].id));
        }),
        propertyParameters(300),
      );
    },
    TIMEOUT_MS,
  );
});
