import { once } from 'node:events';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { A2A_MESSAGES } from '../../src/modules/a2a-channel/protocol/limits-and-messages';
import type { WireTask } from '../../src/modules/a2a-channel/model/task';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { waitFor } from '../support/gateway-harness';
import { startGatewayProcess, type GatewayProcess as Gateway } from '../support/gateway-process';

/**
 * Task store durability, the way it fails in production: the gateway runs as its own process, accepts tasks
 * for an agent whose model stalls, and is killed with SIGKILL (no shutdown hooks, nothing flushed on the way
 * out). The restarted process still knows every task: the ones that had finished keep their result, the ones
 * that were running are FAILED with the restart message.
 * See docs/a2a.md#task-store.
 */

const HERMES = 'hermes-token-durable-0001';
const IRIS = 'iris-token-durable-00002';

async function call(
  url: string,
  token: string,
  method: string,
  params: unknown,
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const res = await fetch(`${url}/a2a/v1`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
}

async function getTask(url: string, token: string, id: string): Promise<WireTask> {
  const answer = await call(url, token, 'GetTask', { id });
  if (!answer.result) throw new Error(`GetTask ${id}: ${JSON.stringify(answer.error)}`);
  return answer.result as WireTask;
}

async function sendImmediately(url: string, token: string, text: string, contextId: string): Promise<WireTask> {
  const answer = await call(url, token, 'SendMessage', {
    message: { messageId: `m-${contextId}`, role: 'ROLE_USER', contextId, parts: [{ text }] },
    configuration: { returnImmediately: true },
  });
  if (!answer.result) throw new Error(`SendMessage: ${JSON.stringify(answer.error)}`);
  return (answer.result as { task: WireTask }).task;
}

describe('A2A task store survives kill -9 (e2e, separate process)', () => {
  let tmp: string;
  let model: FakeOpenAiServer;
  let gateway: Gateway | undefined;

  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-a2a-durable-'));
    model = await new FakeOpenAiServer().start();
    model.always(model.stall());
  });
  afterAll(async () => {
    if (gateway && gateway.child.exitCode === null) {
      gateway.child.kill('SIGKILL');
      await once(gateway.child, 'exit');
    }
    await model?.close();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('finds all 20 in-flight tasks after a restart, each FAILED with the restart message; finished ones keep their result', async () => {
    const configPath = path.join(tmp, 'openclaw.json');
    const stateDir = path.join(tmp, 'state');
    await fs.writeFile(
      configPath,
      `{
        models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}", timeoutMs: 600000 } } },
        agents: { list: [{ id: "slow", default: true, model: "fake/stalls" }, { id: "quick" }] },
        bindings: [{ agentId: "quick", match: { channel: "a2a", peer: { kind: "direct", id: "iris" } } }],
        channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${HERMES}" }, iris: { token: "${IRIS}" } } } },
      }`,
    );

    gateway = await startGatewayProcess(configPath, stateDir, tmp);
    const slow: string[] = [];
    for (let i = 0; i < 20; i++) {
      const task = await sendImmediately(gateway.url, HERMES, `slow task ${i}`, `ctx-slow-${i}`);
      expect(task.status.state).toBe('TASK_STATE_WORKING');
      slow.push(task.id);
    }
    const quick: string[] = [];
    for (let i = 0; i < 2; i++) quick.push((await sendImmediately(gateway.url, IRIS, `quick task ${i}`, `ctx-quick-${i}`)).id);
    const url = gateway.url;
    await waitFor(
      'the quick tasks to complete',
      async () => {
        const states = await Promise.all(quick.map(async (id) => (await getTask(url, IRIS, id)).status.state));
        return states.every((s) => s === 'TASK_STATE_COMPLETED');
      },
      20_000,
    );
    // Every slow run is really in flight: the model has their requests and is sitting on them.
    await waitFor('20 stalled model calls', async () => model.requests.length >= 20, 20_000);

    gateway.child.kill('SIGKILL');
    await once(gateway.child, 'exit');

    gateway = await startGatewayProcess(configPath, stateDir, tmp);
    for (const id of slow) {
      const task = await getTask(gateway.url, HERMES, id);
      expect(task.id).toBe(id);
      expect(task.status.state).toBe('TASK_STATE_FAILED');
      expect(task.status.message?.parts).toEqual([{ text: A2A_MESSAGES.restarted }]);
      expect(A2A_MESSAGES.restarted).toBe('gateway restarted before the agent settled');
    }
    for (const [i, id] of quick.entries()) {
      const task = await getTask(gateway.url, IRIS, id);
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts[0].parts).toEqual([{ text: `[quick] quick task ${i}` }]);
    }
    // Still scoped to the peer after the restart.
    expect((await call(gateway.url, IRIS, 'GetTask', { id: slow[0] })).error?.code).toBe(-32001);
  }, 240_000);
});
