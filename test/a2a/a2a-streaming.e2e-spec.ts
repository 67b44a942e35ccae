import type { StreamResponse } from '@a2a-js/sdk';
import { A2A_MESSAGES } from '../../src/modules/a2a-channel/protocol/limits-and-messages';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { fetchWithToken, sdkClient, sdkSendRequest } from '../support/a2a-sdk';
import { FakeOpenAiServer, tokenText } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { openSse, SseReader } from '../support/sse-client';

// The SDK's CommonJS build loads jose (ESM-only) for card signatures, which jest cannot require; unused here.
jest.mock('jose', () => ({}));

/**
 * SendStreamingMessage and SubscribeToTask over both bindings: the task first, then its durable events (each SSE
 * event's id is the task's event number) until it is over; a client resuming with Last-Event-ID gets exactly what it
 * missed; two subscribers get the same events; cancel ends every stream with CANCELED. A real gateway, the real
 * @a2a-js/sdk streaming client, a fake OpenAI-compatible model whose answers the test releases.
 */
const HERMES = 'hermes-token-0123456789abcdef';
const IRIS = 'iris-token-fedcba9876543210';

type Item = Record<string, any>;

describe('A2A streaming (e2e)', () => {
  let gw: TestGateway;
  let model: FakeOpenAiServer;
  let release: () => void = () => undefined;
  const rpc = (token: string, method: string, params: unknown) => a2aRpc(gw.url, token, method, params);

  /** The next model request waits for `release()`, then answers `text`. */
  const holdNextReply = (text: string) => {
    const gate = new Promise<void>((resolve) => (release = resolve));
    model.script(model.held(gate, model.text(text)));
  };

  /** A JSON-RPC streaming call read as SSE. */
  const rpcStream = (method: string, params: unknown, headers: Record<string, string> = {}, token = HERMES) =>
    openSse(`${gw.url}/a2a/v1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'stream-1', method, params }),
    });

  /** A task whose model answer is held: started with returnImmediately, WORKING until release(). */
  const heldTask = async (text: string): Promise<string> => {
    holdNextReply(text);
    const before = model.requests.length;
    const task = (await rpc(HERMES, 'SendMessage', { ...userMessage('hold on'), configuration: { returnImmediately: true } })).result.task;
    await waitFor('the run to reach the model', async () => model.requests.length > before);
    return task.id as string;
  };

  const results = async (reader: SseReader) => (await reader.rest()).map((e) => ({ id: e.id, result: JSON.parse(e.data).result as Item }));

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    model.always(model.text('the default answer'));
    gw = await startTestGateway(`{
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
      agents: { list: [{ id: "main", default: true, model: "fake/m" }] },
      channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${HERMES}" }, iris: { token: "${IRIS}" } } } },
    }`);
  });
  afterAll(async () => {
    release();
    await gw?.stop();
    await model?.close();
  });

  it.each(['JSONRPC', 'HTTP+JSON'] as const)(
    'the SDK streaming client (%s): 10 tokens 400 ms apart arrive as they are made, in order, then COMPLETED',
    async (binding) => {
      model.script(model.tokens(10, 400));
      const client = await sdkClient(gw.url, fetchWithToken(HERMES), binding);
      expect((await client.getAgentCard()).capabilities?.streaming).toBe(true);
      const events: Array<{ at: number; event: StreamResponse }> = [];
      const started = Date.now();
      for await (const event of client.sendMessageStream(sdkSendRequest('stream this'))) events.push({ at: Date.now() - started, event });
      const kinds = events.map((e) => e.event.payload?.$case);
      expect(kinds[0]).toBe('task');
      expect(kinds.at(-1)).toBe('statusUpdate');
      const chunks = events.filter((e) => e.event.payload?.$case === 'artifactUpdate').map((e) => e.event.payload?.value as any);
      expect(chunks.length).toBeGreaterThanOrEqual(3);
      const text = chunks.map((c) => c.artifact.parts.map((p: any) => p.content.value).join('')).join('');
      expect(text).toBe(tokenText(10));
      expect(chunks[0].append).toBe(false);
      expect(chunks.slice(1).every((c) => c.append)).toBe(true);
      expect(chunks.at(-1).lastChunk).toBe(true);
      expect(new Set(chunks.map((c) => c.artifact.artifactId)).size).toBe(1);
      // Streamed, not buffered: the first piece arrived well before the last token was made (10 × 400 ms).
      const firstChunkAt = events.find((e) => e.event.payload?.$case === 'artifactUpdate')!.at;
      expect(firstChunkAt).toBeLessThan(events.at(-1)!.at - 2000);
      const first = events[0].event.payload?.value as any;
      expect(events.at(-1)!.event.payload?.value).toMatchObject({ taskId: first.id, status: { state: 3 /* TASK_STATE_COMPLETED */ } });
      // GetTask reflects the events.
      const got = (await rpc(HERMES, 'GetTask', { id: first.id })).result;
      expect(got.status.state).toBe('TASK_STATE_COMPLETED');
      expect(got.artifacts[0].parts[0].text).toBe(tokenText(10));
    },
    20_000,
  );

  it('numbers events per task; two subscribers see identical results; a dropped stream resumes with Last-Event-ID', async () => {
    const id = await heldTask('released answer');
    const a = await rpcStream('SubscribeToTask', { id });
    const b = await rpcStream('SubscribeToTask', { id });
    const dropped = await rpcStream('SubscribeToTask', { id });
    expect(a.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // The task first, as it is now (no event yet: id 0).
    const snapshot = await dropped.next();
    expect(snapshot?.id).toBe('0');
    expect(JSON.parse(snapshot!.data).result.task).toMatchObject({ id, status: { state: 'TASK_STATE_WORKING' } });
    dropped.close();

    release();
    const [seenA, seenB] = await Promise.all([results(a), results(b)]);
    expect(seenA).toEqual(seenB);
    // The snapshot (id 0), then events 1, 2, 3…: the reply's chunks, then COMPLETED.
    expect(seenA.map((e) => e.id)).toEqual(seenA.map((_, i) => String(i)));
    const chunks = seenA.slice(1, -1).map((e) => e.result.artifactUpdate);
    expect(chunks.map((c) => c.artifact.parts[0].text).join('')).toBe('released answer');
    expect(chunks.at(-1).lastChunk).toBe(true);
    expect(seenA.at(-1)!.result.statusUpdate).toMatchObject({ taskId: id, status: { state: 'TASK_STATE_COMPLETED' } });
    const last = seenA.at(-1)!.id!;

    // Resuming after the snapshot replays every event from the store, once, then ends: the task is over.
    const resumed = await results(await rpcStream('SubscribeToTask', { id }, { 'last-event-id': '0' }));
    expect(resumed).toEqual(seenA.slice(1));
    // Resuming after the last event: nothing is missing, the stream just ends.
    expect(await results(await rpcStream('SubscribeToTask', { id }, { 'last-event-id': last }))).toEqual([]);
  });

  it('a client that drops after 2 events and resumes with Last-Event-ID gets what it missed once, then the rest live', async () => {
    model.script(model.tokens(8, 250));
    const before = model.requests.length;
    const started = (await rpc(HERMES, 'SendMessage', { ...userMessage('stream slowly'), configuration: { returnImmediately: true } }))
      .result.task;
    const id = started.id as string;
    await waitFor('the run to reach the model', async () => model.requests.length > before);
    const full = await rpcStream('SubscribeToTask', { id });
    const cut = await rpcStream('SubscribeToTask', { id });
    const firstTwo = [await cut.next(), await cut.next()];
    cut.close();
    const lastSeen = firstTwo[1]!.id!;
    expect(Number(lastSeen)).toBeGreaterThan(0);
    // Resumed while the reply is still being produced: the store's events after lastSeen, then live ones.
    const resumed = await rpcStream('SubscribeToTask', { id }, { 'last-event-id': lastSeen });
    const [everything, rest] = await Promise.all([results(full), results(resumed)]);
    expect(everything.at(-1)!.result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    // Exactly the events after lastSeen, each once, in order — the same as an uninterrupted stream's.
    expect(rest).toEqual(everything.filter((e) => Number(e.id) > Number(lastSeen)));
    expect(new Set(rest.map((e) => e.id)).size).toBe(rest.length);
    const text = everything
      .slice(1)
      .flatMap((e) => (e.result.artifactUpdate ? [e.result.artifactUpdate.artifact.parts[0].text] : []))
      .join('');
    expect(text).toBe(tokenText(8));
  });

  it('refuses what cannot be streamed with the spec errors, as JSON before any stream opens', async () => {
    const id = await heldTask('later');
    release();
    await waitFor('the task to finish', async () => (await rpc(HERMES, 'GetTask', { id })).result.status.state === 'TASK_STATE_COMPLETED');
    const json = async (reader: SseReader) => {
      expect(reader.response.headers.get('content-type')).toMatch(/^application\/json/);
      return (await reader.response.json()) as { error: { code: number; message: string } };
    };
    // A task that is over: -32004 (GetTask reads it).
    expect((await json(await rpcStream('SubscribeToTask', { id }))).error).toMatchObject({
      code: -32004,
      message: A2A_MESSAGES.subscribeToFinished,
    });
    // Another peer's task and an unknown one: the same -32001.
    expect((await json(await rpcStream('SubscribeToTask', { id }, {}, IRIS))).error.code).toBe(-32001);
    expect((await json(await rpcStream('SubscribeToTask', { id: 'no-such-task' }))).error.code).toBe(-32001);
    // A Last-Event-ID that is not an event of the task.
    const after = (await results(await rpcStream('SubscribeToTask', { id }, { 'last-event-id': '0' }))).at(-1)!.id!;
    for (const bad of ['abc', '-1', String(Number(after) + 1), '1.5']) {
      const error = (await json(await rpcStream('SubscribeToTask', { id }, { 'last-event-id': bad }))).error;
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(/Last-Event-ID/);
    }
    // SendStreamingMessage validates like SendMessage.
    expect((await json(await rpcStream('SendStreamingMessage', { message: { parts: [] } }))).error.code).toBe(-32602);
  });

  it('cancel ends every stream of the task with CANCELED', async () => {
    const id = await heldTask('never sent');
    const streams = await Promise.all([rpcStream('SubscribeToTask', { id }), rpcStream('SubscribeToTask', { id })]);
    await Promise.all(streams.map((s) => s.next()));
    expect((await rpc(HERMES, 'CancelTask', { id })).result.status.state).toBe('TASK_STATE_CANCELED');
    for (const stream of streams) {
      const rest = await results(stream);
      expect(rest.map((e) => e.result.statusUpdate?.status.state)).toEqual(['TASK_STATE_CANCELED']);
    }
    release();
  });

  it('the HTTP+JSON binding streams StreamResponse objects and resumes the same way', async () => {
    const id = await heldTask('over rest');
    const headers = { authorization: `Bearer ${HERMES}`, accept: 'text/event-stream' };
    const live = await openSse(`${gw.url}/a2a/v1/tasks/${id}:subscribe`, { method: 'POST', headers });
    expect(live.response.status).toBe(200);
    release();
    const events = await live.rest();
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => String(i)));
    expect(JSON.parse(events[0].data).task.id).toBe(id);
    expect(JSON.parse(events.at(-1)!.data).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    const resumed = await openSse(`${gw.url}/a2a/v1/tasks/${id}:subscribe`, {
      method: 'GET',
      headers: { ...headers, 'last-event-id': '1' },
    });
    expect((await resumed.rest()).map((e) => e.data)).toEqual(events.slice(2).map((e) => e.data));
    // Errors are the binding's: a finished task is 400 FAILED_PRECONDITION.
    const over = await fetch(`${gw.url}/a2a/v1/tasks/${id}:subscribe`, { method: 'POST', headers });
    expect(over.status).toBe(400);
    expect(((await over.json()) as Item).error.status).toBe('FAILED_PRECONDITION');
  });

  it('a 0.3 client (message/stream) gets 0.3 shapes with the final flag', async () => {
    const stream = await rpcStream(
      'message/stream',
      { message: { kind: 'message', messageId: 'v03-1', role: 'user', parts: [{ kind: 'text', text: 'old client' }] } },
      {
        'a2a-version': '0.3',
      },
    );
    const seen = (await results(stream)).map((e) => e.result);
    expect(seen[0].kind).toBe('task');
    const chunks = seen.slice(1, -1);
    expect(chunks.every((c) => c.kind === 'artifact-update')).toBe(true);
    expect(chunks.map((c) => c.artifact.parts.map((p: Item) => p.text).join('')).join('')).toBe('the default answer');
    expect(chunks[0].artifact.parts[0].kind).toBe('text');
    expect(seen.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'completed' }, final: true });
  });

  it('a stream open at shutdown ends with its task FAILED, and the process does not wait on it', async () => {
    const id = await heldTask('too late');
    const stream = await rpcStream('SubscribeToTask', { id });
    await stream.next();
    const stopping = gw.stop();
    const rest = (await stream.rest()).map((e) => JSON.parse(e.data));
    await stopping;
    release();
    const states = rest.map((r) => r.result?.statusUpdate?.status.state ?? r.error?.message);
    expect(states[0]).toBe('TASK_STATE_FAILED');
    gw = await startTestGateway(`{
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
      agents: { list: [{ id: "main", default: true, model: "fake/m" }] },
      channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${HERMES}" } } } },
    }`);
  });
});
