import * as http from 'node:http';
import { TASK_STORE, TaskStore } from '../../src/modules/a2a-channel/store/task-store.port';
import { BIG, ErrorPathsGateway, HERMES, IRIS, LIMIT, Outcome, startErrorPathsGateway, WRONG } from '../support/a2a-error-gateway';

/**
 * The error paths of a2a-errors.e2e-spec.ts over the HTTP+JSON binding (docs/a2a.md#httpjson-rest), one row each: what is
 * sent, the HTTP status, the google.rpc.Status name and, for the A2A-specific errors, the ErrorInfo reason (and the exact
 * message where the docs fix it). Plus what only this binding has: routes, HTTP methods, query parameters.
 */

describe('A2A HTTP+JSON error paths (e2e)', () => {
  let fixture: ErrorPathsGateway;
  let irisTaskId: string;

  const raw: ErrorPathsGateway['raw'] = (...args) => fixture.raw(...args);
  const json = (o: Outcome) => JSON.parse(o.text);

  beforeAll(async () => {
    fixture = await startErrorPathsGateway();
    ({ irisTaskId } = fixture);
  });
  afterAll(async () => {
    await fixture?.stop();
    // No response of this suite ever carried a token.
    for (const token of [HERMES, IRIS, BIG]) expect((fixture?.bodies ?? []).join('\n')).not.toContain(token);
  });

  /** The HTTP+JSON binding: a request to `/a2a/v1<path>` with the exact body bytes. */
  const rest = (method: string, path: string, payload?: unknown, token: string | null = HERMES, headers: http.OutgoingHttpHeaders = {}) =>
    raw(
      Buffer.from(payload === undefined ? '' : typeof payload === 'string' ? payload : JSON.stringify(payload)),
      token,
      `/a2a/v1${path}`,
      method,
      headers,
    );
  const restSend = (text: string, message: Record<string, unknown> = {}, token: string | null = HERMES) =>
    rest('POST', '/message:send', { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text }], ...message } }, token);

  type RestTuple = [name: string, act: () => Promise<Outcome>, status: number, rpcStatus: string, reason: string | null, message?: string];
  const restTuples: RestTuple[] = [
    ['HTTP+JSON: no Authorization header → 401', () => restSend('hi', {}, null), 401, 'UNAUTHENTICATED', null],
    ['HTTP+JSON: a wrong token of the same length → 401', () => restSend('hi', {}, WRONG), 401, 'UNAUTHENTICATED', null],
    [
      'HTTP+JSON: the token of a peer whose ${VAR} is unset → 401',
      () => restSend('hi', {}, '${GHOST_TOKEN}'),
      401,
      'UNAUTHENTICATED',
      null,
    ],
    [
      'HTTP+JSON: a body of the limit + 1 byte → 413 (the JSON-RPC limit)',
      () => raw(Buffer.alloc(LIMIT + 1, 0x20), HERMES, '/a2a/v1/message:send'),
      413,
      'RESOURCE_EXHAUSTED',
      null,
    ],
    [
      'HTTP+JSON: a chunked body crossing the limit → 413',
      () =>
        raw(
          Array.from({ length: 40 }, () => Buffer.alloc(64 * 1024, 0x20)),
          HERMES,
          '/a2a/v1/message:send',
        ),
      413,
      'RESOURCE_EXHAUSTED',
      null,
    ],
    [
      'HTTP+JSON: malformed JSON → 400',
      () => rest('POST', '/message:send', '{"message":'),
      400,
      'INVALID_ARGUMENT',
      null,
      'The request body is not valid JSON',
    ],
    [
      'HTTP+JSON: a body that is not an object → 400',
      () => rest('POST', '/message:send', '"SendMessage"'),
      400,
      'INVALID_ARGUMENT',
      null,
      'Invalid params: the request body must be a JSON object',
    ],
    ['HTTP+JSON: a path that is no operation → 404', () => rest('GET', '/tasks/x/frobnicate'), 404, 'NOT_FOUND', null],
    ['HTTP+JSON: a wrong HTTP method → 405', () => rest('PUT', '/tasks/x'), 405, 'UNIMPLEMENTED', null],
    ['HTTP+JSON: an unknown query parameter → 400', () => rest('GET', '/tasks?limit=5'), 400, 'INVALID_ARGUMENT', null],
    [
      'HTTP+JSON: subscribe to an unknown task → 404',
      () => rest('POST', '/tasks/no-such-task:subscribe'),
      404,
      'NOT_FOUND',
      'TASK_NOT_FOUND',
    ],
    [
      'HTTP+JSON: cancel of an unknown id → 404',
      () => rest('POST', '/tasks/no-such-task:cancel'),
      404,
      'NOT_FOUND',
      'TASK_NOT_FOUND',
      'Task not found',
    ],
    [
      "HTTP+JSON: cancel of another peer's task → 404",
      () => rest('POST', `/tasks/${irisTaskId}:cancel`),
      404,
      'NOT_FOUND',
      'TASK_NOT_FOUND',
      'Task not found',
    ],
    [
      'HTTP+JSON: cancel of a finished task → 400',
      () => rest('POST', `/tasks/${irisTaskId}:cancel`, undefined, IRIS),
      400,
      'FAILED_PRECONDITION',
      'TASK_NOT_CANCELABLE',
      'Task cannot be canceled: it is already over',
    ],
    [
      "HTTP+JSON: a push-notification config of another peer's task → 404",
      () => rest('POST', `/tasks/${irisTaskId}/pushNotificationConfigs`, { url: 'https://peer.example/hook' }),
      404,
      'NOT_FOUND',
      'TASK_NOT_FOUND',
    ],
    [
      'HTTP+JSON: a message without role → 400',
      () => rest('POST', '/message:send', { message: { messageId: 'm', parts: [{ text: 'hi' }] } }),
      400,
      'INVALID_ARGUMENT',
      null,
    ],
    ['HTTP+JSON: GET /tasks/{id}?historyLength=-1 → 400', () => rest('GET', '/tasks/x?historyLength=-1'), 400, 'INVALID_ARGUMENT', null],
    [
      'HTTP+JSON: A2A-Version 99.0 → 400',
      () => rest('GET', '/tasks', undefined, HERMES, { 'A2A-Version': '99.0' }),
      400,
      'FAILED_PRECONDITION',
      'VERSION_NOT_SUPPORTED',
      'A2A version not supported',
    ],
    [
      'HTTP+JSON: A2A-Version 0.3 → 400 (this binding speaks 1.0 only)',
      () => rest('GET', '/tasks', undefined, HERMES, { 'A2A-Version': '0.3' }),
      400,
      'FAILED_PRECONDITION',
      'VERSION_NOT_SUPPORTED',
      'A2A version not supported',
    ],
    [
      'HTTP+JSON: A2A-Version 99.0 as a query parameter → 400',
      () => rest('GET', '/tasks?A2A-Version=99.0'),
      400,
      'FAILED_PRECONDITION',
      'VERSION_NOT_SUPPORTED',
    ],
    ['HTTP+JSON: SendMessage without a message → 400', () => rest('POST', '/message:send', {}), 400, 'INVALID_ARGUMENT', null],
    [
      'HTTP+JSON: a contextId outside the pattern → 400',
      () => restSend('hi', { contextId: 'ctx/../../etc' }),
      400,
      'INVALID_ARGUMENT',
      null,
    ],
    [
      'HTTP+JSON: a taskId the peer does not own → 404',
      () => restSend('hi', { taskId: 'task-1' }),
      404,
      'NOT_FOUND',
      'TASK_NOT_FOUND',
      'Task not found',
    ],
    [
      "HTTP+JSON: a taskId of the peer's own finished task → 400",
      () => restSend('hi', { taskId: irisTaskId }, IRIS),
      400,
      'FAILED_PRECONDITION',
      'UNSUPPORTED_OPERATION',
      'Task is already over: omit taskId and reuse contextId',
    ],
    [
      'HTTP+JSON: a raw part without a media type (application/octet-stream is not accepted by default) → 400 (-32005)',
      () => restSend('see file', { parts: [{ url: 'https://x.example/f' }, { raw: 'aGk=' }] }),
      400,
      'INVALID_ARGUMENT',
      'CONTENT_TYPE_NOT_SUPPORTED',
      'Content type not supported: message.parts[1] is application/octet-stream',
    ],
    [
      'HTTP+JSON: a part with no text, data, raw or url → 400 naming it',
      () => restSend('x', { parts: [{ text: 'hi' }, { metadata: {} }] }),
      400,
      'INVALID_ARGUMENT',
      null,
      'Invalid params: message.parts[1] has no text, data, raw or url content',
    ],
    [
      'HTTP+JSON: GET /extendedAgentCard without a token → 401',
      () => rest('GET', '/extendedAgentCard', undefined, null),
      401,
      'UNAUTHENTICATED',
      null,
    ],
    [
      'HTTP+JSON: GET /extendedAgentCard with a query parameter → 400 naming it',
      () => rest('GET', '/extendedAgentCard?verbose=1'),
      400,
      'INVALID_ARGUMENT',
      null,
      'Invalid params: unknown query parameter "verbose" for GET /extendedAgentCard: it takes none',
    ],
    [
      'HTTP+JSON: POST /extendedAgentCard → 405',
      () => rest('POST', '/extendedAgentCard', {}),
      405,
      'UNIMPLEMENTED',
      null,
      '/a2a/v1/extendedAgentCard does not answer POST; it answers GET',
    ],
    [
      'HTTP+JSON: a data part nested 100 000 levels deep → 400 naming the limit',
      () => rest('POST', '/message:send', `{"message":{"messageId":"m","parts":[{"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}}`),
      400,
      'INVALID_ARGUMENT',
      null,
      'Invalid params: params are nested more than 64 levels deep',
    ],
    [
      'HTTP+JSON: GET /tasks/{id} of an unknown id → 404',
      () => rest('GET', '/tasks/no-such-task'),
      404,
      'NOT_FOUND',
      'TASK_NOT_FOUND',
      'Task not found',
    ],
    [
      "HTTP+JSON: GET /tasks/{id} of another peer's task → 404",
      () => rest('GET', `/tasks/${irisTaskId}`),
      404,
      'NOT_FOUND',
      'TASK_NOT_FOUND',
    ],
    [
      'HTTP+JSON: a reply over 1 MiB → 500',
      () => restSend('say a lot', {}, BIG),
      500,
      'INTERNAL',
      null,
      'A2A response exceeds the 1 MiB limit',
    ],
  ];
  const restRows = restTuples.map(([name, act, status, rpcStatus, reason, message]) => ({ name, act, status, rpcStatus, reason, message }));

  it.each(restRows)('$name', async ({ act, status, rpcStatus, reason, message }) => {
    const res = await act();
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('application/a2a+json');
    const { error } = json(res);
    expect(error).toMatchObject({ code: status, status: rpcStatus });
    if (message) expect(error.message).toBe(message);
    // A2A-specific errors carry a google.rpc.ErrorInfo with the reason in `details`; the others carry nothing more.
    expect(Object.keys(error).sort()).toEqual(reason ? ['code', 'details', 'message', 'status'] : ['code', 'message', 'status']);
    if (reason) {
      expect(error.details).toEqual([
        expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', domain: 'a2a-protocol.org', reason }),
      ]);
    }
  });

  it('an internal failure is 500 INTERNAL "A2A request could not be processed" without details', async () => {
    const store = fixture.gw.app.get<TaskStore>(TASK_STORE);
    const spy = jest.spyOn(store, 'insert').mockRejectedValueOnce(new Error('SQLITE_FULL at /state/a2a/tasks.sqlite'));
    try {
      const res = await restSend('hi');
      expect(res.status).toBe(500);
      expect(json(res)).toEqual({ error: { code: 500, status: 'INTERNAL', message: 'A2A request could not be processed' } });
      expect(res.text).not.toContain('SQLITE');
    } finally {
      spy.mockRestore();
    }
  });

  it('413 closes the connection, with the words of the JSON-RPC endpoint', async () => {
    const res = await raw(Buffer.alloc(LIMIT + 1, 0x20), HERMES, '/a2a/v1/message:send');
    expect(res.headers.connection).toBe('close');
    expect(json(res).error.message).toBe(
      `the request body exceeds the limit of ${LIMIT} bytes (1 MiB, plus channels.a2a.files.maxBytes in base64)`,
    );
  });
});
