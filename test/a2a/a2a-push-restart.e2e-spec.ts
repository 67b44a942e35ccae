import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CliBuild, transpileCli } from '../fixtures/cli-runner';
import { GatewayProcess } from '../fixtures/gateway-process';
import { waitFor } from '../support/gateway-harness';
import { PushReceiver } from '../support/push-receiver';

/**
 * The push outbox survives kill -9: a delivery whose receiver is failing is pending (retried with backoff) when the
 * gateway process is killed with SIGKILL; after the restart on the same state dir the receiver, now answering, gets it.
 */
const TOKEN = 'push-restart-peer-token-0000001';

async function rpc(url: string, method: string, params: unknown): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const res = await fetch(`${url}/a2a/v1`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: any; error?: { code: number; message: string } };
}

describe('A2A push: a pending delivery survives kill -9 (e2e, separate process)', () => {
  let build: CliBuild;
  let dir: string;
  let gateway: GatewayProcess | undefined;
  let receiver: PushReceiver;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-push-kill-'));
    [build, receiver] = await Promise.all([transpileCli(), new PushReceiver().start()]);
  }, 60_000);
  afterAll(async () => {
    await gateway?.kill9();
    await receiver?.close();
    await build?.remove();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('delivers after the restart what was pending when the process was killed', async () => {
    const configPath = path.join(dir, 'openclaw.json');
    await fs.writeFile(
      configPath,
      `{
        agents: { list: [{ id: "main", default: true }] },
        channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${TOKEN}", pushUrls: ["${receiver.origin}/hooks/*"] } } } },
      }`,
    );
    const options = { cliJs: build.cliJs, configPath, stateDir: path.join(dir, 'state'), home: dir };
    gateway = await GatewayProcess.start(options);
    // Down for now: every attempt fails until the receiver is told otherwise.
    receiver.thenStatus = 503;
    const sent = await rpc(gateway.url, 'SendMessage', {
      message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'push me' }] },
      configuration: { taskPushNotificationConfig: { url: `${receiver.origin}/hooks/one`, token: 'tok' } },
    });
    const taskId = sent.result.task.id as string;
    expect(sent.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    await waitFor('a failed first attempt', async () => receiver.received.length >= 1, 10_000);
    await gateway.kill9();

    const failedSoFar = receiver.received.length;
    receiver.thenStatus = 200;
    gateway = await GatewayProcess.start(options);
    await waitFor(
      'both events delivered after the restart',
      async () => receiver.received.filter((r) => r.status === 200).length >= 2,
      20_000,
    );
    const delivered = receiver.received.filter((r) => r.status === 200).map((r) => JSON.parse(r.body));
    expect(delivered[0].artifactUpdate.taskId).toBe(taskId);
    expect(delivered[1].statusUpdate).toMatchObject({ taskId, status: { state: 'TASK_STATE_COMPLETED' } });
    // Every failed attempt was one of the first event (the second waits its turn): nothing was skipped.
    expect(receiver.received.slice(0, failedSoFar).every((r) => JSON.parse(r.body).artifactUpdate)).toBe(true);
  }, 90_000);
});
