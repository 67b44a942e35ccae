import { captureLogLines } from '../support/captured-logs';
import request from 'supertest';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { settlesWithin, startTestGateway, waitFor } from '../support/gateway-harness';

/**
 * gateway.drainMs: a stop lets the runs in flight finish (a blocked caller gets the result, not WORKING) while new
 * messages are refused; 0 keeps the abort at once
 * (a2a-lifecycle.e2e-spec.ts); bad values are refused in validate-config.spec.ts.
 *
 * Each step has its own deadline and a failure carries the gateway's log lines, so a step that stalls on a loaded
 * machine names itself and what the gateway was doing rather than ending as the test's timeout.
 */
const TOKEN = 'hermes-token-drain-7f3a';
const send = (url: string, text: string) =>
  request(url)
    .post('/a2a/v1')
    .set('Authorization', `Bearer ${TOKEN}`)
    .send({
      jsonrpc: '2.0',
      id: text,
      method: 'SendMessage',
      params: { message: { messageId: text, role: 'ROLE_USER', parts: [{ text }] } },
    });

describe('gateway.drainMs (e2e)', () => {
  it('lets a running task finish within the drain while new messages are refused', async () => {
    const logs = captureLogLines();
    const model = await new FakeOpenAiServer().start();
    // 1.5 s per answer: the stop begins while the first run waits for its model.
    model.always(model.tokens(10, 150));
    const gw = await startTestGateway(`{
      gateway: { drainMs: 20000 },
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
      agents: { list: [{ id: "main", model: "fake/slow" }] },
      channels: { a2a: { enabled: true, peers: { hermes: { token: "${TOKEN}" } } } },
    }`);
    let stopping: Promise<void> | undefined;
    try {
      const pending = send(gw.url, 'finish me').then((r) => r);
      await waitFor('the run to reach the model', async () => model.requests.length === 1, 20_000);
      stopping = gw.stop();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const refused = await settlesWithin('the refusal of a message sent while stopping', send(gw.url, 'too late'), 10_000);
      expect(refused.body.error).toMatchObject({ code: -32000 });
      expect(refused.body.error.message).toMatch(/shutting down/);
      const res = await settlesWithin('the blocked caller of the run in flight', pending, 25_000);
      expect(res.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(model.requests).toHaveLength(1);
      await settlesWithin('the stop to end', stopping, 25_000);
    } catch (err) {
      const lines = logs.lines.map((l) => `${String(l.time)} ${String(l.context)} ${String(l.msg ?? l.event)}`);
      throw new Error(`${(err as Error).message}\ngateway log:\n${lines.join('\n')}`);
    } finally {
      logs.stop();
      if (!stopping) await gw.stop();
      await model.close();
    }
  }, 90_000);
});
