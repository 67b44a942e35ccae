import request from 'supertest';
import type { GatewayProcess } from '../fixtures/gateway-process';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startReplicaCluster, type ReplicaCluster } from './support/replica';

/**
 * One budget spent from by two replicas at once (docs/usage.md#budgets-on-several-replicas): two `clawgate gateway` processes on one
 * PostgreSQL (usage rows) and one Redis (session lanes), one scripted OpenAI-compatible model behind both that takes
 * a while to answer and reports 100 tokens a call, and agent main's budget of 1000 tokens a day. Three conversations
 * per replica send messages one after the other until they are refused, so each replica has at most three runs —
 * three model calls — in flight. A call is checked against the rows written so far and the call that crosses the
 * limit is let through, so the model serves at most the 10 calls the limit holds plus one per run in flight on
 * either replica (6); every refusal names the budget, and `/admin/usage` on either replica reads what the model
 * reported.
 */
jest.setTimeout(180_000);

const PEER_TOKEN = 'budget-replicas-peer-7c1f';
const PER_CALL = { prompt_tokens: 60, completion_tokens: 40, total_tokens: 100 };
const LIMIT = 1000;
const CONVERSATIONS_PER_REPLICA = 3;
/** A message per conversation at most; far more than the budget holds. */
const MESSAGES_PER_CONVERSATION = 12;

const configText = (redisUrl: string, modelUrl: string) => `{
  gateway: {
    state: { backend: "postgres", url: "\${DATABASE_URL}" },
    cluster: { redis: { url: "${redisUrl}" } },
  },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${modelUrl}" } } },
  agents: { list: [{ id: "main", default: true, model: "fake/m" }] },
  budgets: [{ name: "main-daily", agent: "main", tokens: ${LIMIT}, window: "day" }],
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${PEER_TOKEN}" } } } },
}`;

interface Outcome {
  state: string;
  text: string;
}

const send = async (url: string, contextId: string, n: number): Promise<Outcome> => {
  const res = await request(url)
    .post('/a2a/v1')
    .set('Authorization', `Bearer ${PEER_TOKEN}`)
    .send({
      jsonrpc: '2.0',
      id: n,
      method: 'SendMessage',
      params: { message: { messageId: `${contextId}-${n}`, contextId, role: 'ROLE_USER', parts: [{ text: `${contextId}/${n}` }] } },
    })
    .expect(200);
  const task = (res.body as { result?: { task?: { status?: { state?: string; message?: { parts?: Array<{ text?: string }> } } } } }).result
    ?.task;
  return { state: task?.status?.state ?? `no task: ${JSON.stringify(res.body)}`, text: task?.status?.message?.parts?.[0]?.text ?? '' };
};

describe('one budget spent from by two replicas on PostgreSQL (system)', () => {
  let cluster: ReplicaCluster;
  const model = new FakeOpenAiServer();
  const replicas: GatewayProcess[] = [];

  beforeAll(async () => {
    await model.start();
    // 20 "tokens" 10 ms apart: each call is in flight for about 200 ms, so calls of both replicas overlap.
    model.always(model.tokens(20, 10, PER_CALL));
    cluster = await startReplicaCluster({ database: 'budgets', config: (redisUrl) => configText(redisUrl, model.baseUrl) });
    // One after the other: the first applies the migrations, the second finds them applied.
    for (const name of ['a', 'b']) replicas.push(await cluster.start(name));
  });
  afterAll(async () => {
    await cluster?.close();
    await model.close();
  });

  it('serves at most the limit plus one call per run in flight, refuses naming the budget, and counts every call', async () => {
    const outcomes: Outcome[] = [];
    const conversation = async (url: string, contextId: string) => {
      for (let n = 1; n <= MESSAGES_PER_CONVERSATION; n++) {
        const outcome = await send(url, contextId, n);
        outcomes.push(outcome);
        if (outcome.state !== 'TASK_STATE_COMPLETED') return;
      }
    };
    const started = Date.now();
    await Promise.all(
      replicas.flatMap((replica, r) =>
        Array.from({ length: CONVERSATIONS_PER_REPLICA }, (_, c) => conversation(replica.url, `ctx-${r}-${c}`)),
      ),
    );
    const served = model.requests.length;
    const perCall = PER_CALL.prompt_tokens + PER_CALL.completion_tokens;
    const inFlight = replicas.length * CONVERSATIONS_PER_REPLICA;
    // What the run measured, for whoever reads the log: how far past the limit the replicas went.
    console.log(
      `budget ${LIMIT} tokens, ${perCall} a call: ${served} calls served (${served * perCall} tokens), ${inFlight} runs in flight at most, ${Date.now() - started} ms`,
    );

    expect(served).toBeGreaterThanOrEqual(LIMIT / perCall);
    expect(served).toBeLessThanOrEqual(LIMIT / perCall + inFlight);
    // Every conversation ended on a refusal, and each refusal names the budget; no other failure happened.
    const refused = outcomes.filter((o) => o.state !== 'TASK_STATE_COMPLETED');
    expect(refused).toHaveLength(inFlight);
    for (const o of refused) {
      expect(o.state).toBe('TASK_STATE_FAILED');
      expect(o.text).toMatch(/^budget "main-daily" exhausted: 1000 tokens per day for agent main, \d+ used; it resets at /);
    }
    expect(outcomes.filter((o) => o.state === 'TASK_STATE_COMPLETED')).toHaveLength(served);

    // Either replica reads every call the model answered (each replica writes its rows within a turn: wait for them).
    const expected = { group: 'main', calls: served, inputTokens: served * 60, outputTokens: served * 40 };
    for (const replica of replicas) {
      let items: unknown[] = [];
      for (let i = 0; i < 50; i++) {
        items = (await request(replica.url).get('/admin/usage?groupBy=agent').expect(200)).body.items as unknown[];
        if ((items[0] as { calls?: number } | undefined)?.calls === served) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(items).toEqual([expect.objectContaining(expected)]);
    }
  });
});
