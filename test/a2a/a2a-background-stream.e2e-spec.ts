import { TaskState } from '@a2a-js/sdk';
import type { StreamResponse } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { artifactText, fetchWithToken, sdkClient, sendTask } from '../support/a2a-sdk';
import { FakeOpenAiServer, tokenText } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

// The SDK's CommonJS build loads jose (ESM-only) for card signatures, which jest cannot require; unused here.
jest.mock('jose', () => ({}));

/**
 * A task started without waiting for it (SendMessage with `returnImmediately`) runs in the background; when the
 * agent's model streams, so does that run: a SubscribeToTask made while it runs sees the reply grow as artifact
 * chunks (`append: true` after the first, then `lastChunk`), then the final status, and GetTask at the end has the
 * whole reply as one artifact. A real gateway, the real @a2a-js/sdk client over both bindings, a fake
 * OpenAI-compatible model that streams its answer in pieces with pauses between them.
 */
const HERMES = 'hermes-token-5b1d7e3a9c0f2468';
/** Routed to the agent whose provider does not stream. */
const IRIS = 'iris-token-0a1b2c3d4e5f6789';
const TOKENS = 8;
const GAP_MS = 250;

type ArtifactUpdate = {
  artifact: { artifactId: string; parts: Array<{ content?: { $case: string; value: unknown } }> };
  append: boolean;
  lastChunk: boolean;
};

const partsText = (parts: Array<{ content?: { $case: string; value: unknown } }>): string =>
  parts.map((p) => (p.content?.$case === 'text' ? (p.content.value as string) : '')).join('');

describe('A2A: a non-blocking task streams its reply to a later SubscribeToTask (e2e)', () => {
  let gw: TestGateway;
  let model: FakeOpenAiServer;

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    model.always(model.text('the default answer'));
    gw = await startTestGateway(`{
      models: { providers: {
        fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" },
        plain: { api: "openai-chat", baseUrl: "${model.baseUrl}", stream: false },
      } },
      agents: { list: [
        { id: "main", default: true, model: "fake/m" },
        { id: "quiet", model: "plain/m" },
      ] },
      bindings: [{ agentId: "quiet", match: { channel: "a2a", peer: { kind: "direct", id: "iris" } } }],
      channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: {
        hermes: { token: "${HERMES}" },
        iris: { token: "${IRIS}" },
      } } },
    }`);
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
  });

  /** Starts a task whose model streams `TOKENS` pieces `GAP_MS` apart, and waits until its run is at the model. */
  const startBackgroundTask = async (client: Client) => {
    model.script(model.tokens(TOKENS, GAP_MS));
    const before = model.requests.length;
    const task = await sendTask(client, 'tell me slowly', { returnImmediately: true });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    await waitFor('the run to reach the model', async () => model.requests.length > before);
    return task;
  };

  it.each(['JSONRPC', 'HTTP+JSON'] as const)(
    'the SDK client (%s): the subscription sees the reply grow chunk by chunk, then COMPLETED; GetTask has it once',
    async (binding) => {
      const client = await sdkClient(gw.url, fetchWithToken(HERMES), binding);
      const started = await startBackgroundTask(client);
      // The background run asked the model to stream: it has someone to tell, the task's subscribers.
      expect(model.requests.at(-1)!.body.stream).toBe(true);

      const events: StreamResponse[] = [];
      for await (const event of client.resubscribeTask({ tenant: '', id: started.id })) events.push(event);

      const kinds = events.map((e) => e.payload?.$case);
      expect(kinds[0]).toBe('task');
      expect(kinds.at(-1)).toBe('statusUpdate');
      expect(events.at(-1)!.payload?.value).toMatchObject({ taskId: started.id, status: { state: TaskState.TASK_STATE_COMPLETED } });
      const chunks = events.filter((e) => e.payload?.$case === 'artifactUpdate').map((e) => e.payload?.value as ArtifactUpdate);
      // Grown, not handed over whole: today's one final chunk would fail here.
      expect(chunks.length).toBeGreaterThanOrEqual(3);
      expect(chunks.slice(1).every((c) => c.append)).toBe(true);
      expect(chunks.slice(0, -1).every((c) => !c.lastChunk)).toBe(true);
      expect(chunks.at(-1)!.lastChunk).toBe(true);
      expect(new Set(chunks.map((c) => c.artifact.artifactId)).size).toBe(1);
      // The subscription began with the task as it was (maybe with some of the reply already); the chunks go on from there.
      const snapshot = events[0].payload?.value as { artifacts: ArtifactUpdate['artifact'][] };
      const seen = chunks.reduce(
        (text, c) => (c.append ? text + partsText(c.artifact.parts) : partsText(c.artifact.parts)),
        snapshot.artifacts.map((a) => partsText(a.parts)).join(''),
      );
      expect(seen).toBe(tokenText(TOKENS));

      const done = await client.getTask({ tenant: '', id: started.id });
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(done.artifacts).toHaveLength(1);
      expect(done.artifacts[0].artifactId).toBe(chunks[0].artifact.artifactId);
      expect(artifactText(done)).toBe(tokenText(TOKENS));
    },
    30_000,
  );

  it('the stored events replay the same chunks, and the task has one artifact with the whole reply', async () => {
    const client = await sdkClient(gw.url, fetchWithToken(HERMES), 'JSONRPC');
    const started = await startBackgroundTask(client);
    await waitFor(
      'the task to complete',
      async () => (await client.getTask({ tenant: '', id: started.id })).status?.state === TaskState.TASK_STATE_COMPLETED,
    );
    // Replayed from the store (Last-Event-ID 0): every chunk, each once, then COMPLETED.
    const replay = await fetch(`${gw.url}/a2a/v1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${HERMES}`, 'content-type': 'application/json', accept: 'text/event-stream', 'last-event-id': '0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SubscribeToTask', params: { id: started.id } }),
    });
    const results = (await replay.text())
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)).result);
    const chunks = results.flatMap((r) => (r.artifactUpdate ? [r.artifactUpdate] : []));
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(chunks.map((c) => c.artifact.parts[0].text).join('')).toBe(tokenText(TOKENS));
    expect(results.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    const got = (await a2aRpc(gw.url, HERMES, 'GetTask', { id: started.id })).result;
    expect(got.artifacts).toEqual([{ artifactId: chunks[0].artifact.artifactId, parts: [{ text: tokenText(TOKENS) }] }]);
  });

  it('a provider set not to stream (stream: false) still answers a non-blocking task with its whole reply, once', async () => {
    model.script(model.text('all at once'));
    const before = model.requests.length;
    const started = (await a2aRpc(gw.url, IRIS, 'SendMessage', { ...userMessage('hi'), configuration: { returnImmediately: true } })).result
      .task;
    await waitFor('the run to reach the model', async () => model.requests.length > before);
    expect(model.requests.at(-1)!.body.stream).toBeUndefined();
    let got: { status: { state: string }; artifacts: unknown[] } = started;
    await waitFor('the task to complete', async () => {
      got = (await a2aRpc(gw.url, IRIS, 'GetTask', { id: started.id })).result;
      return got.status.state === 'TASK_STATE_COMPLETED';
    });
    expect(got.artifacts).toEqual([{ artifactId: expect.any(String), parts: [{ text: 'all at once' }] }]);
  });
});
