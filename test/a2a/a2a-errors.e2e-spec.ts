import * as http from 'node:http';
import request from 'supertest';
import { A2A_MESSAGES, TRUNCATION_MARKER } from '../../src/modules/a2a-channel/protocol/limits-and-messages';
import { TASK_STORE, TaskStore } from '../../src/modules/a2a-channel/store/task-store.port';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { BIG, ErrorPathsGateway, HERMES, IRIS, LIMIT, Outcome, startErrorPathsGateway, WRONG } from '../support/a2a-error-gateway';
import type { TestGateway } from '../support/gateway-harness';

/**
 * Every error path of POST /a2a/v1 (docs/a2a.md#limits-and-errors), one row each: what is sent, the HTTP status, and the
 * JSON-RPC code (and exact message where the docs fix it). The same conditions over the HTTP+JSON binding:
 * a2a-rest-errors.e2e-spec.ts.
 */

/** The ErrorInfo reason of each A2A-specific code. */
const REASONS: Record<number, string> = {
  [-32001]: 'TASK_NOT_FOUND',
  [-32002]: 'TASK_NOT_CANCELABLE',
  [-32003]: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  [-32004]: 'UNSUPPORTED_OPERATION',
  [-32005]: 'CONTENT_TYPE_NOT_SUPPORTED',
  [-32009]: 'VERSION_NOT_SUPPORTED',
};

describe('A2A endpoint error paths (e2e)', () => {
  let fixture: ErrorPathsGateway;
  let gw: TestGateway;
  let irisTaskId: string;
  const bodies: string[] = [];

  const raw: ErrorPathsGateway['raw'] = (...args) => fixture.raw(...args);
  const post = (payload: unknown, token: string | null = HERMES, headers: http.OutgoingHttpHeaders = {}, query = '') =>
    raw(Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)), token, `/a2a/v1${query}`, 'POST', headers);
  const rpc = (method: string, params: unknown, id: unknown = 1) => ({ jsonrpc: '2.0', id, method, params });
  const send = (text: string, message: Record<string, unknown> = {}) =>
    rpc('SendMessage', { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text }], ...message } });
  const json = (o: Outcome) => JSON.parse(o.text);

  beforeAll(async () => {
    fixture = await startErrorPathsGateway();
    ({ gw, irisTaskId } = fixture);
  });
  afterAll(() => fixture?.stop());

  type Tuple = [name: string, act: () => Promise<Outcome>, status: number, code: number | null, message?: string];
  const tuples: Tuple[] = [
    ['no Authorization header → 401', () => post(send('hi'), null), 401, null],
    ['a wrong token of the same length → 401', () => post(send('hi'), WRONG), 401, null],
    ['the token of a peer whose ${VAR} is unset → 401', () => post(send('hi'), '${GHOST_TOKEN}'), 401, null],
    ['a body of the limit + 1 byte → 413', () => raw(Buffer.alloc(LIMIT + 1, 0x20)), 413, null],
    ['a chunked body crossing the limit → 413', () => raw(Array.from({ length: 40 }, () => Buffer.alloc(64 * 1024, 0x20))), 413, null],
    ['malformed JSON → -32700', () => post('{"jsonrpc": "2.0", "id": 1,'), 200, -32700, 'Parse error'],
    ['an empty batch [] → -32600', () => post([]), 200, -32600, 'Invalid Request'],
    ['a body that is not an object → -32600', () => post('"SendMessage"'), 200, -32600, 'Invalid Request'],
    ['jsonrpc other than "2.0" → -32600', () => post({ ...send('hi'), jsonrpc: '1.0' }), 200, -32600, 'Invalid Request'],
    [
      'a batch of 31 entries → one -32000',
      () => post(Array.from({ length: 31 }, (_, i) => rpc('GetTask', { id: 'x' }, i))),
      200,
      -32000,
      'batch exceeds the 30 request limit',
    ],
    ['an unknown method → -32601', () => post(rpc('tasks/frobnicate', {})), 200, -32601, 'Method not found'],
    ['SendStreamingMessage without a message → -32602 before any stream opens', () => post(rpc('SendStreamingMessage', {})), 200, -32602],
    ['CancelTask of an unknown id → -32001', () => post(rpc('CancelTask', { id: 'no-such-task' })), 200, -32001, 'Task not found'],
    ["CancelTask of another peer's task → -32001", () => post(rpc('CancelTask', { id: irisTaskId })), 200, -32001, 'Task not found'],
    [
      'CancelTask of a finished task → -32002',
      () => post(rpc('CancelTask', { id: irisTaskId }), IRIS),
      200,
      -32002,
      'Task cannot be canceled: it is already over',
    ],
    [
      'a push-notification config of an unknown task → -32001',
      () => post(rpc('CreateTaskPushNotificationConfig', { taskId: 'x' })),
      200,
      -32001,
    ],
    [
      'a message without role → -32602',
      () => post(rpc('SendMessage', { message: { messageId: 'm', parts: [{ text: 'hi' }] } })),
      200,
      -32602,
    ],
    ['GetTask with historyLength -1 → -32602', () => post(rpc('GetTask', { id: 'x', historyLength: -1 })), 200, -32602],
    ['A2A-Version 99.0 → -32009', () => post(send('hi'), HERMES, { 'A2A-Version': '99.0' }), 200, -32009, 'A2A version not supported'],
    ['A2A-Version 99.0 as a query parameter → -32009', () => post(send('hi'), HERMES, {}, '?A2A-Version=99.0'), 200, -32009],
    ['SendMessage without a message → -32602', () => post(rpc('SendMessage', {})), 200, -32602],
    ['a contextId outside ^[A-Za-z0-9._:-]{1,128}$ → -32602', () => post(send('hi', { contextId: 'ctx/../../etc' })), 200, -32602],
    ['a taskId the peer does not own → -32001', () => post(send('hi', { taskId: 'task-1' })), 200, -32001, 'Task not found'],
    [
      "a taskId of the peer's own finished task → -32004",
      () => post(send('hi', { taskId: irisTaskId }), IRIS),
      200,
      -32004,
      'Task is already over: omit taskId and reuse contextId',
    ],
    [
      'a raw part without a media type (application/octet-stream is not accepted by default) → -32005',
      () => post(send('see file', { parts: [{ url: 'https://x.example/f' }, { raw: 'aGk=' }] })),
      200,
      -32005,
      'Content type not supported: message.parts[1] is application/octet-stream',
    ],
    [
      'a part with no text, data, raw or url → -32602 naming it',
      () => post(send('x', { parts: [{ text: 'hi' }, { metadata: {} }] })),
      200,
      -32602,
      'Invalid params: message.parts[1] has no text, data, raw or url content',
    ],
    [
      'a data part nested 100 000 levels deep → -32602 naming the limit',
      () =>
        post(
          `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","parts":[{"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}}}`,
        ),
      200,
      -32602,
      'Invalid params: params are nested more than 64 levels deep',
    ],
    ['GetTask of an unknown id → -32001', () => post(rpc('GetTask', { id: 'no-such-task' })), 200, -32001, 'Task not found'],
    ["GetTask of another peer's task → -32001", () => post(rpc('GetTask', { id: irisTaskId })), 200, -32001, 'Task not found'],
    ['a reply over 1 MiB → -32000', () => post(send('say a lot'), BIG), 200, -32000, 'A2A response exceeds the 1 MiB limit'],
  ];

  const rows = tuples.map(([name, act, status, code, message]) => ({ name, act, status, code, message }));

  it.each(rows)('$name', async ({ act, status, code, message }) => {
    const res = await act();
    expect(res.status).toBe(status);
    if (code === null) {
      expect(res.headers['content-type']).toMatch(/json/);
      expect(json(res)).toMatchObject({ status });
      return;
    }
    const body = json(res);
    expect(body.jsonrpc).toBe('2.0');
    expect(body.error.code).toBe(code);
    if (message) expect(body.error.message).toBe(message);
    // A2A-specific errors (-32001…-32099) carry a google.rpc.ErrorInfo with the reason; the JSON-RPC ones carry nothing more.
    const a2aSpecific = code <= -32001 && code >= -32099;
    expect(Object.keys(body.error).sort()).toEqual(a2aSpecific ? ['code', 'data', 'message'] : ['code', 'message']);
    if (a2aSpecific) {
      expect(body.error.data).toEqual([
        expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', domain: 'a2a-protocol.org', reason: REASONS[code] }),
      ]);
    }
  });

  it('413 closes the connection and never reaches JSON-RPC', async () => {
    const res = await raw(Buffer.alloc(LIMIT + 1, 0x20));
    expect(res.headers.connection).toBe('close');
    expect(json(res).detail).toBe(
      `the request body exceeds the limit of ${LIMIT} bytes (1 MiB, plus channels.a2a.files.maxBytes in base64)`,
    );
    const body = Buffer.from(JSON.stringify(send('x')));
    const ok = await raw(Buffer.from(JSON.stringify(send('x'.repeat(LIMIT - body.length + 1)))));
    expect(ok.status).toBe(200); // exactly-at-the-limit bodies are fine
  });

  it("another peer's task is indistinguishable from an unknown one", async () => {
    const foreign = json(await post(rpc('GetTask', { id: irisTaskId }, 'same')));
    const unknown = json(await post(rpc('GetTask', { id: 'f00dfeed-0000-4000-8000-000000000000' }, 'same')));
    // The only difference is the id the caller sent, echoed in the ErrorInfo.
    expect(foreign.error.data[0].metadata).toEqual({ taskId: irisTaskId });
    foreign.error.data[0].metadata.taskId = 'f00dfeed-0000-4000-8000-000000000000';
    expect(foreign).toEqual(unknown);
    // The owner does see it.
    expect(json(await post(rpc('GetTask', { id: irisTaskId }), IRIS)).result.id).toBe(irisTaskId);
  });

  it('a streaming method (1.0 or 0.3) inside a batch answers -32004 saying why; the other entries are answered', async () => {
    const methods = ['SendStreamingMessage', 'SubscribeToTask', 'message/stream', 'tasks/resubscribe'];
    const res = json(await post([...methods.map((m, i) => rpc(m, { id: 'x' }, i)), rpc('GetTask', { id: 'x' }, 'get')]));
    expect(res).toHaveLength(methods.length + 1);
    for (const entry of res.slice(0, methods.length)) {
      expect(entry.error.code).toBe(-32004);
      expect(entry.error.message).toBe(A2A_MESSAGES.streamNotBatched);
    }
    expect(res[methods.length]).toMatchObject({ id: 'get', error: { code: -32001 } });
  });

  it('a slash command becomes a REJECTED task with the exact status message', async () => {
    const res = json(await post(send('  /reset everything')));
    expect(res.result.task.status.state).toBe('TASK_STATE_REJECTED');
    expect(res.result.task.status.message).toMatchObject({ role: 'ROLE_AGENT', parts: [{ text: A2A_MESSAGES.slashCommand }] });
    expect(res.result.task.status.message.messageId).toEqual(expect.any(String));
    // Command-looking text elsewhere is an ordinary task.
    expect(json(await post(send('please run /reset'))).result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('a 70 KiB multi-byte text is cut on a character boundary before the agent sees it', async () => {
    const contextId = 'ctx-long-text';
    const text = 'a' + '€'.repeat((70 * 1024) / 3 + 10) + '𝄞'.repeat(10);
    expect(Buffer.byteLength(text)).toBeGreaterThan(70 * 1024);
    const res = json(await post(send(text, { contextId })));
    expect(res.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const sessions = gw.app.get<SessionStore>(SESSION_STORE);
    const { lines } = await sessions.history(`agent:main:a2a:default:direct:hermes:${contextId}`);
    const seen = lines.find((l) => l.role === 'user')!.text;
    expect(seen.endsWith(TRUNCATION_MARKER)).toBe(true);
    const kept = seen.slice(0, -TRUNCATION_MARKER.length);
    expect(kept).not.toContain('\uFFFD');
    expect(text.startsWith(kept)).toBe(true);
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(65_536);
    expect(Buffer.byteLength(seen)).toBeLessThanOrEqual(65_536 + Buffer.byteLength(TRUNCATION_MARKER));
  });

  it('notifications get no entry; a body of only notifications is HTTP 200 with an empty body', async () => {
    const res = await post({ jsonrpc: '2.0', method: 'GetTask', params: { id: 'x' } });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const mixed = json(await post([{ jsonrpc: '2.0', method: 'GetTask', params: { id: 'x' } }, rpc('GetTask', { id: 'x' }, 9)]));
    expect(mixed).toEqual([{ jsonrpc: '2.0', id: 9, error: expect.objectContaining({ code: -32001, message: 'Task not found' }) }]);
  });

  it('an internal failure is -32000 "A2A request could not be processed" without details', async () => {
    const store = gw.app.get<TaskStore>(TASK_STORE);
    const spy = jest.spyOn(store, 'insert').mockRejectedValueOnce(new Error('SQLITE_FULL at /state/a2a/tasks.sqlite'));
    try {
      const res = await post(send('hi'));
      expect(res.status).toBe(200);
      expect(json(res)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'A2A request could not be processed' } });
      expect(res.text).not.toContain('SQLITE');
    } finally {
      spy.mockRestore();
    }
  });

  it('other methods and paths under /a2a are 404 JSON', async () => {
    for (const res of [
      await request(gw.url).get('/a2a/v1'),
      await request(gw.url).post('/a2a/v2').set('Authorization', `Bearer ${HERMES}`),
      await request(gw.url).get('/a2a'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/json/);
      bodies.push(res.text);
    }
    expect(
      (
        await request(gw.url)
          .post('/a2a/v1/')
          .set('Authorization', `Bearer ${HERMES}`)
          .send(rpc('GetTask', { id: 'x' }))
      ).body.error.code,
    ).toBe(-32001);
  });

  afterAll(() => {
    // No response of this suite ever carried a token.
    for (const token of [HERMES, IRIS, BIG]) expect([...bodies, ...(fixture?.bodies ?? [])].join('\n')).not.toContain(token);
  });
});
