import { snapshotFrom } from '../../../../test/support/config-snapshot';
import { ServingConfigStore } from '../../../../test/support/serving-config-store';
import { RoutingService } from '../../routing/routing.service';
import type { AgentRunner, StartRunInput } from '../../runtime/agent-runner.service';
import { RunRecord, RunRegistry } from '../../runtime/run-registry';
import { HttpChannelService } from './http-channel.service';

/** The desk account is bound to support; per-channel-peer keys give each peer and thread its own session. */
const CONFIG = {
  agents: { list: [{ id: 'main' }, { id: 'support' }] },
  bindings: [{ agentId: 'support', match: { channel: 'http', accountId: 'desk' } }],
  session: { dmScope: 'per-channel-peer' },
};

/** The service over real routing, a real RunRegistry and a runner that never finishes its runs on its own. */
async function setup() {
  const runs = new RunRegistry();
  const started: StartRunInput[] = [];
  const runIds: string[] = [];
  const runner: Pick<AgentRunner, 'startRun' | 'waitForRun'> = {
    waitForRun: (runId, timeoutMs) => runs.wait(runId, timeoutMs),
    startRun: (input) => {
      started.push(input);
      const { record } = runs.create(input.sessionKey, 'support');
      runIds.push(record.runId);
      return { runId: record.runId, done: new Promise<RunRecord>(() => undefined) };
    },
  };
  const routing = new RoutingService(new ServingConfigStore(await snapshotFrom(CONFIG)));
  jest.spyOn(routing, 'resolve');
  return { service: new HttpChannelService(routing, runner), runs, runIds, started, routing };
}

describe('HttpChannelService', () => {
  const message = { peer: { kind: 'direct' as const, id: 'Alice' }, text: 'hello', threadId: 't1' };

  it('routes as channel http with the account, and creates the session with the conversation as delivery context', async () => {
    const { service, started, routing } = await setup();
    await service.receive('desk', { ...message, wait: false });
    expect(routing.resolve).toHaveBeenCalledWith({
      channel: 'http',
      accountId: 'desk',
      peer: { kind: 'direct', id: 'Alice' },
      threadId: 't1',
    });
    expect(started[0]).toMatchObject({
      sessionKey: 'agent:support:http:direct:alice:thread:t1',
      message: 'hello',
      create: { deliveryContext: { channel: 'http', accountId: 'desk', to: 'Alice', threadId: 't1' } },
    });
  });

  it('answers 202 "running" when the run is not done within the wait, without cancelling it', async () => {
    const { service, runs } = await setup();
    const outcome = await service.receive('desk', message, 20);
    expect(outcome).toEqual({
      status: 202,
      body: { runId: expect.any(String), sessionKey: 'agent:support:http:direct:alice:thread:t1', status: 'running' },
    });
    expect(runs.get(outcome.body.runId)?.status).toBe('queued');
  });

  it('answers 200 with the reply once the run completes, and with the error when it was aborted', async () => {
    const { service, runs, runIds } = await setup();
    const pending = service.receive('desk', message, 5000);
    await new Promise((r) => setImmediate(r));
    const [runId] = runIds;
    runs.update(runId, { status: 'completed', reply: 'hi there' });
    expect(await pending).toEqual({
      status: 200,
      body: { runId, sessionKey: 'agent:support:http:direct:alice:thread:t1', agentId: 'support', status: 'completed', reply: 'hi there' },
    });

    const aborted = service.receive('desk', message, 5000);
    await new Promise((r) => setImmediate(r));
    const second = runIds[1];
    runs.update(second, { status: 'aborted', error: 'aborted by operator' });
    expect((await aborted).body).toMatchObject({ status: 'aborted', error: 'aborted by operator' });
  });
});
