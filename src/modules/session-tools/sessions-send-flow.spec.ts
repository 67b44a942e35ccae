import { snapshotFrom } from '../../../test/support/config-snapshot';
import { ServingConfigStore } from '../../../test/support/serving-config-store';
import { ChannelRegistry } from '../channels/channel-registry';
import type { AgentRunner } from '../runtime/agent-runner.service';
import { RunRecord, RunRegistry } from '../runtime/run-registry';
import type { NewTranscriptLine, SessionStore } from '../sessions/session-store.port';
import type { ExchangeProgress } from './exchange-recorder';
import { SessionsSendFlow } from './sessions-send-flow';

/** An ExchangeProgress that writes down what the flow reported, as `<call> <argument>` lines. */
function recordingProgress(): { progress: ExchangeProgress; calls: string[] } {
  const calls: string[] = [];
  const note = (name: string) => (arg?: unknown) => calls.push(`${name} ${JSON.stringify(arg ?? null)}`);
  const progress: ExchangeProgress = {
    answered: note('answered'),
    pingPongStarted: note('pingPongStarted'),
    turnStarted: (turn, role) => calls.push(`turnStarted ${turn} ${role}`),
    pingPongEnded: note('pingPongEnded'),
    announceStarted: (sessionKey) => calls.push(`announceStarted ${sessionKey}`),
    announced: note('announced'),
    flowEnded: note('flowEnded'),
  };
  return { progress, calls };
}

describe('SessionsSendFlow announce delivery', () => {
  const targetKey = 'agent:expert:http:direct:p1';
  const record = (reply: string): RunRecord => ({
    runId: 'r1',
    sessionKey: targetKey,
    agentId: 'expert',
    status: 'completed',
    reply,
    queuedAt: new Date().toISOString(),
    toolRounds: 0,
  });

  it('records a failed delivery when the channel adapter throws, instead of dropping the outcome', async () => {
    const appended: Array<{ key: string; line: NewTranscriptLine }> = [];
    const config = new ServingConfigStore(
      await snapshotFrom({ agents: { list: [{ id: 'main' }, { id: 'expert' }] }, session: { agentToAgent: { maxPingPongTurns: 0 } } }),
    );
    // Every step completes at once with the text the announce step would post.
    const runs = new RunRegistry();
    const runner: Pick<AgentRunner, 'startRun' | 'waitForRun' | 'abortRun'> = {
      waitForRun: (runId, timeoutMs) => runs.wait(runId, timeoutMs),
      abortRun: (runId, reason) => runs.abort(runId, reason),
      startRun: (input) => {
        const { record: started } = runs.create(input.sessionKey, 'expert');
        const done = runs.update(started.runId, { status: 'completed', reply: 'posted text', endedAt: new Date().toISOString() });
        return { runId: started.runId, done: Promise.resolve(done) };
      },
    };
    const channels = new ChannelRegistry();
    channels.register({ id: 'http', send: () => Promise.reject(new Error('socket closed')) });
    const sessions: Pick<SessionStore, 'get' | 'append'> = {
      get: async (sessionKey) => ({
        sessionKey,
        sessionId: 's1',
        agentId: 'expert',
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
        deliveryContext: { channel: 'http', accountId: 'default', to: 'p1' },
      }),
      append: async (key, line) => {
        appended.push({ key, line });
        return { ...line, id: 'x', ts: 'now' };
      },
    };
    const flow = new SessionsSendFlow(config, runner, channels, sessions);
    const { progress, calls } = recordingProgress();

    await flow.continueAfterRoundOne({
      requesterKey: 'agent:main:main',
      targetKey,
      request: 'hi',
      roundOne: record('first'),
      provenance: { kind: 'inter_session', sourceSessionKey: 'agent:main:main', sourceTool: 'sessions_send', chainId: 'c1', hop: 1 },
      timeoutSeconds: 5,
      progress,
    });

    expect(appended).toHaveLength(1);
    expect(appended[0].key).toBe(targetKey);
    expect(appended[0].line.role).toBe('system');
    expect(appended[0].line.text).toBe('announce failed: channel "http" could not deliver: socket closed');
    expect(appended[0].line.meta).toMatchObject({ delivery: { status: 'failed' } });
    // The exchange's record gets the same outcome, with the target it was meant for.
    expect(calls).toEqual([
      'pingPongStarted 0',
      'pingPongEnded "disabled"',
      `announceStarted ${targetKey}`,
      `announced ${JSON.stringify({
        status: 'failed',
        detail: 'channel "http" could not deliver: socket closed',
        target: { channel: 'http', accountId: 'default', to: 'p1' },
      })}`,
    ]);
  });

  it('stops when the requesting run is aborted: the step under way is aborted, no further step (nor the announce) starts', async () => {
    const config = new ServingConfigStore(
      await snapshotFrom({ agents: { list: [{ id: 'main' }, { id: 'expert' }] }, session: { agentToAgent: { maxPingPongTurns: 3 } } }),
    );
    // Every step runs until it is aborted.
    const runs = new RunRegistry();
    const started: string[] = [];
    const runner: Pick<AgentRunner, 'startRun' | 'waitForRun' | 'abortRun'> = {
      waitForRun: (runId, timeoutMs) => runs.wait(runId, timeoutMs),
      abortRun: (runId, reason) => runs.abort(runId, reason),
      startRun: (input) => {
        const { record: run, signal } = runs.create(input.sessionKey, 'main');
        started.push(`${input.sessionKey} ${String((input.meta?.sessionsSend as { step: string }).step)}`);
        const done = new Promise<RunRecord>((resolve) =>
          signal.addEventListener('abort', () =>
            resolve(runs.update(run.runId, { status: 'aborted', error: (signal.reason as Error).message, endedAt: 'now' })),
          ),
        );
        return { runId: run.runId, done };
      },
    };
    const sessions: Pick<SessionStore, 'get' | 'append'> = {
      get: async () => undefined,
      append: async (_k, line) => ({ ...line, id: 'x', ts: 'now' }),
    };
    const flow = new SessionsSendFlow(config, runner, new ChannelRegistry(), sessions);
    const requester = new AbortController();
    const { progress, calls } = recordingProgress();
    const exchange = flow.continueAfterRoundOne({
      requesterKey: 'agent:main:main',
      targetKey,
      request: 'hi',
      roundOne: record('first'),
      provenance: { kind: 'inter_session', sourceSessionKey: 'agent:main:main', sourceTool: 'sessions_send', chainId: 'c2', hop: 1 },
      timeoutSeconds: 30,
      signal: requester.signal,
      progress,
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual(['agent:main:main ping-pong']);
    requester.abort(new Error('cancel'));
    await exchange;
    expect(started).toEqual(['agent:main:main ping-pong']);
    expect(calls).toEqual([
      'pingPongStarted 3',
      'turnStarted 1 requester',
      'pingPongEnded "requester-aborted"',
      `announced ${JSON.stringify({ status: 'skipped', detail: 'the run that sent this message was aborted' })}`,
    ]);
  });
});
