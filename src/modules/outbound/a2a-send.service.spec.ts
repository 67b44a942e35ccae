import { snapshotFrom } from '../../../test/support/config-snapshot';
import { ServingConfigStore } from '../../../test/support/serving-config-store';
import { ToolRegistry } from '../runtime/tool-registry';
import type { NewTranscriptLine, SessionStore } from '../sessions/session-store.port';
import type { A2aOutboundClient, A2aSendOutcome } from './a2a-outbound.client';
import { A2aOutboundError } from './a2a-outbound-error';
import { A2aSendService, SANDBOX_REFUSAL, SEND_ABORTED } from './a2a-send.service';
import { asHttp } from '../../../test/support/as-http';

describe('A2aSendService', () => {
  const appended: Array<{ key: string; line: NewTranscriptLine }> = [];
  let next: () => Promise<A2aSendOutcome>;
  const calls: unknown[] = [];
  const cancels: unknown[] = [];
  const client: Pick<A2aOutboundClient, 'send' | 'cancel'> = {
    send: (...args) => (calls.push(args), next()),
    cancel: async (...args) => (cancels.push(args), { canceled: true, state: 'TASK_STATE_CANCELED' }),
  };
  const sessions: Pick<SessionStore, 'append'> = {
    append: async (key, line) => {
      appended.push({ key, line });
      return { ...line, id: `line-${appended.length}`, ts: new Date().toISOString() };
    },
  };
  const registry = new ToolRegistry();
  let service: A2aSendService;
  beforeAll(async () => {
    const agents = [{ id: 'main' }, { id: 'boxed', sandbox: { mode: 'all' } }];
    const config = new ServingConfigStore(await snapshotFrom({ agents: { list: agents } }));
    service = new A2aSendService(registry, client, config, sessions);
    service.onModuleInit();
  });
  const ctx = (sessionKey: string) => ({
    sessionKey,
    agentId: sessionKey.split(':')[1],
    runId: 'run-1',
    signal: new AbortController().signal,
  });
  const everyone = { tools: { allow: [], deny: [] } };

  beforeEach(() => {
    appended.length = 0;
    calls.length = 0;
    cancels.length = 0;
  });

  it('registers a2a_send with a strict schema', async () => {
    expect(registry.names()).toContain('a2a_send');
    expect(registry.argumentError('a2a_send', { peer: 'b' })).toBe('missing required argument "text"');
    expect(registry.argumentError('a2a_send', { peer: 'b', text: 'x', to: 'http://x' })).toBe('unknown argument "to"');
    expect(registry.argumentError('a2a_send', { peer: 'b', text: '  ' })).toContain('argument "text"');
    expect(registry.argumentError('a2a_send', { peer: 'b', text: 'x', wait: 'yes' })).toContain('argument "wait"');
  });

  it('refuses sandboxed agents without calling out', async () => {
    expect(await registry.call(everyone, 'a2a_send', { peer: 'b', text: 'x' }, ctx('agent:boxed:main'))).toEqual({
      status: 'forbidden',
      error: SANDBOX_REFUSAL,
    });
    expect(calls).toEqual([]);
  });

  it('records a reply with inter_session provenance from a2a:<peer>', async () => {
    next = async () => ({
      status: 'ok',
      peer: 'b',
      taskId: 't1',
      state: 'TASK_STATE_COMPLETED',
      reply: 'pong',
      method: 'SendMessage',
      protocolVersion: '1.0',
    });
    const result = await registry.call(everyone, 'a2a_send', { peer: 'b', text: 'ping', wait: true }, ctx('agent:main:main'));
    expect(result).toMatchObject({ status: 'ok', taskId: 't1', reply: 'pong' });
    expect(calls[0]).toEqual(['b', 'ping', { wait: true, signal: expect.any(AbortSignal) }]);
    expect(appended).toEqual([
      {
        key: 'agent:main:main',
        line: {
          role: 'system',
          text: 'a2a_send to a2a:b: task t1 TASK_STATE_COMPLETED (ok)\nsent: ping\nreply: pong',
          runId: 'run-1',
          provenance: { kind: 'inter_session', sourceSessionKey: 'a2a:b', sourceChannel: 'a2a', sourceTool: 'a2a_send' },
          meta: {
            a2a_outbound: {
              peer: 'b',
              target: 'a2a:b',
              taskId: 't1',
              state: 'TASK_STATE_COMPLETED',
              status: 'ok',
              method: 'SendMessage',
              protocolVersion: '1.0',
              via: 'tool',
            },
          },
        },
      },
    ]);
  });

  it('maps failures: unknown peer → not_found (nothing recorded), peer failures → error (recorded)', async () => {
    next = async () => {
      throw new A2aOutboundError('unknown_peer', 'no A2A peer "x" is configured');
    };
    expect(await service.sendAsTool(ctx('agent:main:main'), { peer: 'x', text: 'hi' })).toEqual({
      status: 'not_found',
      peer: 'x',
      error: 'no A2A peer "x" is configured',
    });
    expect(appended).toEqual([]);

    next = async () => {
      throw new A2aOutboundError('refused', 'peer b: redirect');
    };
    expect(await service.sendAsTool(ctx('agent:main:main'), { peer: 'b', text: 'hi' })).toEqual({
      status: 'error',
      peer: 'b',
      error: 'peer b: redirect',
    });
    expect(appended[0].line.meta).toEqual({
      a2a_outbound: { peer: 'b', target: 'a2a:b', taskId: null, status: 'error', reason: 'refused', via: 'tool' },
    });
  });

  it('the operator path records in agent:<default>:a2a-outbound and turns failures into problems', async () => {
    next = async () => ({
      status: 'accepted',
      peer: 'b',
      taskId: 't2',
      state: 'TASK_STATE_WORKING',
      method: 'SendMessage',
      protocolVersion: '1.0',
    });
    expect(await service.sendAsOperator('b', { text: 'hi' })).toEqual({ status: 'accepted', taskId: 't2', state: 'TASK_STATE_WORKING' });
    expect(appended[0].key).toBe('agent:main:a2a-outbound');

    next = async () => {
      throw new A2aOutboundError('no_url', 'peer c has no url configured for outbound A2A');
    };
    await expect(asHttp(service.sendAsOperator('c', { text: 'hi' }))).rejects.toMatchObject({
      status: 409,
      detail: 'peer c has no url configured for outbound A2A',
    });
  });

  it('ties an open task to the run: an abort sends CancelTask and records the cancel, never a result', async () => {
    const run = new AbortController();
    const stops: Array<() => Promise<unknown> | void> = [];
    const runCtx = {
      ...ctx('agent:main:main'),
      signal: run.signal,
      onAbort: (stop: () => Promise<unknown> | void) => void stops.push(stop),
    };
    next = async () => ({
      status: 'accepted',
      peer: 'b',
      taskId: 't3',
      state: 'TASK_STATE_WORKING',
      method: 'SendMessage',
      protocolVersion: '1.0',
    });
    expect(await service.sendAsTool(runCtx, { peer: 'b', text: 'long job' })).toMatchObject({ status: 'accepted', taskId: 't3' });
    expect(stops).toHaveLength(1);
    expect(cancels).toEqual([]);

    run.abort(new Error('canceled'));
    await stops[0]();
    expect(cancels).toEqual([['b', 't3', '1.0']]);
    expect(appended.at(-1)?.line).toMatchObject({
      role: 'system',
      text: 'a2a_send to a2a:b: task t3 canceled at the peer: the run that sent it was aborted',
      meta: { a2a_outbound: { taskId: 't3', state: 'TASK_STATE_CANCELED', status: 'canceled', cancel: { canceled: true } } },
    });
  });

  it('a result that comes back after the abort is dropped: no reply in the transcript or the tool result', async () => {
    const run = new AbortController();
    next = async () => {
      run.abort(new Error('canceled'));
      return {
        status: 'ok',
        peer: 'b',
        taskId: 't4',
        state: 'TASK_STATE_COMPLETED',
        reply: 'too late',
        method: 'SendMessage',
        protocolVersion: '1.0',
      };
    };
    const result = await service.sendAsTool({ ...ctx('agent:main:main'), signal: run.signal }, { peer: 'b', text: 'x', wait: true });
    expect(result).toEqual({ status: 'error', peer: 'b', taskId: 't4', state: 'TASK_STATE_COMPLETED', error: SEND_ABORTED });
    // Already over at the peer: nothing to cancel, and the reply is not kept.
    expect(cancels).toEqual([]);
    expect(appended).toHaveLength(1);
    expect(appended[0].line.text).toBe(
      'a2a_send to a2a:b: task t4 ended TASK_STATE_COMPLETED; the run that sent it was aborted, so its result is not used',
    );
    expect(JSON.stringify(appended)).not.toContain('too late');
  });
});
