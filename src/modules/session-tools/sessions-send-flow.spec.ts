import type { ChannelRegistry } from '../channels/channel-registry';
import type { ConfigStore } from '../config/config.store';
import type { AgentRunner } from '../runtime/agent-runner.service';
import type { RunRecord } from '../runtime/run-registry';
import type { NewTranscriptLine, SessionStore } from '../sessions/session-store.port';
import { SessionsSendFlow } from './sessions-send-flow';

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
    const config = { current: () => ({ config: { session: { agentToAgent: { maxPingPongTurns: 0 } } } }) } as unknown as ConfigStore;
    const runner = {
      startRun: () => ({ runId: 'r2', done: Promise.resolve(record('posted text')) }),
      waitForRun: async () => record('posted text'),
    } as unknown as AgentRunner;
    const channels = {
      get: () => ({ id: 'http', send: () => Promise.reject(new Error('socket closed')) }),
    } as unknown as ChannelRegistry;
    const sessions = {
      get: async () => ({ sessionKey: targetKey, deliveryContext: { channel: 'http', accountId: 'default', to: 'p1' } }),
      append: async (key: string, line: NewTranscriptLine) => {
        appended.push({ key, line });
        return { ...line, id: 'x', ts: 'now' };
      },
    } as unknown as SessionStore;
    const flow = new SessionsSendFlow(config, runner, channels, sessions);

    await flow.continueAfterRoundOne({
      requesterKey: 'agent:main:main',
      targetKey,
      request: 'hi',
      roundOne: record('first'),
      provenance: { kind: 'inter_session', sourceSessionKey: 'agent:main:main', sourceTool: 'sessions_send', chainId: 'c1', hop: 1 },
      timeoutSeconds: 5,
    });

    expect(appended).toHaveLength(1);
    expect(appended[0].key).toBe(targetKey);
    expect(appended[0].line.role).toBe('system');
    expect(appended[0].line.text).toBe('announce failed: channel "http" could not deliver: socket closed');
    expect(appended[0].line.meta).toMatchObject({ delivery: { status: 'failed' } });
  });
});
