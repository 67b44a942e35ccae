import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { agentBrain } from '../support/agent-brain';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { waitFor } from '../support/gateway-harness';
import { killHard, startGatewayProcess, type GatewayProcess } from '../support/gateway-process';

/**
 * A tool call waiting for approval outlives the process (docs/approvals.md#after-a-restart): the gateway is killed with
 * SIGKILL while an A2A task waits; after the restart the task is still INPUT_REQUIRED (not FAILED as other unsettled
 * tasks are), the request is still pending, and approving it resumes the session's turn: the tool runs, the model
 * answers, the task completes.
 */
const HERMES = 'hermes-token-approval-restart-1';

interface WireTask {
  id: string;
  status: { state: string; message?: { parts: Array<{ text: string }>; metadata?: Record<string, { id: string }> } };
  artifacts?: Array<{ parts: Array<{ text: string }> }>;
}

async function rpc(url: string, method: string, params: unknown): Promise<{ result?: any; error?: { message: string } }> {
  const res = await fetch(`${url}/a2a/v1`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${HERMES}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: any; error?: { message: string } };
}

async function taskIn(url: string, id: string, state: string): Promise<WireTask> {
  return waitFor(
    `task ${id} in ${state}`,
    async () => {
      const task = (await rpc(url, 'GetTask', { id })).result as WireTask;
      return task.status.state === state && task;
    },
    20_000,
  );
}

describe('tool approvals survive kill -9 (e2e, separate process)', () => {
  let tmp: string;
  let model: FakeOpenAiServer;
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-approval-restart-'));
    model = await new FakeOpenAiServer().start();
    model.always(
      agentBrain(model, ({ toolResult }) =>
        toolResult ? { text: `after the call: ${String(toolResult.status)}` } : { tool: 'session_status', args: {} },
      ),
    );
  });
  afterAll(async () => {
    await killHard(gateway);
    await model?.close();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('keeps the task waiting across the restart, and an approval then completes it', async () => {
    const configPath = path.join(tmp, 'openclaw.json');
    const stateDir = path.join(tmp, 'state');
    await fs.writeFile(
      configPath,
      `{
        models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
        agents: { list: [{ id: "main", default: true, model: "fake/brain", tools: { requiresApproval: ["session_*"] } }] },
        channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${HERMES}" } } } },
      }`,
    );
    gateway = await startGatewayProcess(configPath, stateDir, tmp);
    const sent = await rpc(gateway.url, 'SendMessage', {
      message: { messageId: 'm-restart', role: 'ROLE_USER', parts: [{ text: 'what is my status?' }] },
      configuration: { returnImmediately: true },
    });
    const taskId = (sent.result as { task: WireTask }).task.id;
    const waiting = await taskIn(gateway.url, taskId, 'TASK_STATE_INPUT_REQUIRED');
    const approvalId = waiting.status.message!.metadata!['clawgate/approval'].id;
    const asked = model.requests.length;

    await killHard(gateway);
    gateway = await startGatewayProcess(configPath, stateDir, tmp);

    const after = (await rpc(gateway.url, 'GetTask', { id: taskId })).result as WireTask;
    expect(after.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const pending = (await (await fetch(`${gateway.url}/admin/approvals?state=pending`)).json()) as { items: Array<{ id: string }> };
    expect(pending.items.map((a) => a.id)).toEqual([approvalId]);
    // Nothing ran on its own: the model was not asked again.
    expect(model.requests.length).toBe(asked);

    const approved = await fetch(`${gateway.url}/admin/approvals/${approvalId}/approve`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ note: 'after the restart' }),
    });
    expect(approved.status).toBe(200);
    const done = await taskIn(gateway.url, taskId, 'TASK_STATE_COMPLETED');
    expect(done.artifacts?.[0]?.parts.map((p) => p.text).join('')).toBe('after the call: ok');
    expect(model.requests.length).toBe(asked + 1);
    const record = (await (await fetch(`${gateway.url}/admin/approvals/${approvalId}`)).json()) as Record<string, unknown>;
    expect(record).toMatchObject({ state: 'approved', decidedBy: 'loopback' });
    expect(typeof record.resumedBy).toBe('string');
  }, 180_000);
});
