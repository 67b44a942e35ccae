import { Logger } from '@nestjs/common';
import { snapshotFrom } from '../../../../../test/support/config-snapshot';
import { ServingConfigStore } from '../../../../../test/support/serving-config-store';
import { A2aOperations } from '../../operations/operations.service';
import { A2aRpcService } from './json-rpc.service';
import { toV03AgentCard } from '../../card/agent-card-v03';
import { buildExtendedAgentCard } from '../../operations/extended-agent-card';
import type { A2aTaskService } from '../../operations/task.service';
import type { Clock } from '../../model/clock';
import { AppError } from '../../../../common/errors/app-error';
import { ErrorCode } from '../../../../common/errors/error-code';
import type { A2aWireVersion } from '../../../../common/a2a-protocol';
import { InProcessRateLimitWindows } from '../../../../common/rate-limit/rate-limit-windows';
import { SlidingWindowRateLimiter } from '../../../../common/rate-limit/sliding-window-rate-limiter';
import type { A2aTask, WireTask } from '../../model/task';

/** What the fake task service answers: a completed task whose artifact is `reply`, as kept and as answered in 1.0. */
const completedTaskKept = (reply: string): A2aTask => ({
  id: 't1',
  peer: 'hermes',
  contextId: 'ctx-1',
  messageId: 'm-1',
  state: 'TASK_STATE_COMPLETED',
  artifact: { artifactId: 'a1', text: reply },
  history: [],
  createdAt: Date.parse('2026-01-01T00:00:00.000Z'),
  updatedAt: Date.parse('2026-01-01T00:00:00.000Z'),
});
const completedTask = (reply: string): WireTask => ({
  id: 't1',
  contextId: 'ctx-1',
  status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:00.000Z' },
  artifacts: [{ artifactId: 'a1', parts: [{ text: reply }] }],
  history: [],
});

/** JSON-RPC framing over a fake task service: what goes in, what comes out. */
async function setup(rateLimitPerMinute = 0) {
  const clock: Clock & { t: number } = { t: 0, now: () => clock.t };
  const config = new ServingConfigStore(await snapshotFrom({ channels: { a2a: { rateLimitPerMinute } } }));
  const calls: Array<{ op: string; peer: string; params: unknown; wait?: boolean }> = [];
  let reply = 'ok';
  // The typed seam: each method gets its params as the domain reads them and answers domain objects.
  const tasks: Pick<A2aTaskService, 'accept' | 'getTask' | 'cancelTask' | 'listTasks'> = {
    accept: async (peer, params, options) => {
      calls.push({ op: 'send', peer, params, wait: options.wait });
      if (params.text === 'boom') throw new Error('disk on fire at /var/secret/path');
      return completedTaskKept(reply);
    },
    getTask: async (peer, params) => {
      calls.push({ op: 'get', peer, params });
      throw new AppError(ErrorCode.TaskNotFound, 'Task not found', [{ taskId: 'nope' }]);
    },
    listTasks: async (peer, params) => {
      calls.push({ op: 'list', peer, params });
      return { tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0, includeArtifacts: params.includeArtifacts };
    },
    cancelTask: async (peer, params) => {
      calls.push({ op: 'cancel', peer, params });
      throw new AppError(ErrorCode.TaskNotCancelable, 'Task cannot be canceled: it is already over');
    },
  };
  const cards = {
    // As the service does: the card in the call's version (what it then signs, as the peer reads it).
    extendedCard: async (peer: string, origin: string, wire: A2aWireVersion = '1.0') => {
      calls.push({ op: 'card', peer, params: `${origin} ${wire}` });
      const card = buildExtendedAgentCard(config.current().config, origin, []);
      return Promise.resolve(wire === '0.3' ? toV03AgentCard(card) : card);
    },
  };
  const streams = {
    sendStreamingMessage: () => Promise.reject(new Error('no streams in this spec')),
    subscribeToTask: () => Promise.reject(new Error('no streams in this spec')),
  };
  const pushConfigs = {
    create: () => Promise.reject(new Error('no push configs in this spec')),
    get: () => Promise.reject(new Error('no push configs in this spec')),
    list: () => Promise.reject(new Error('no push configs in this spec')),
    remove: () => Promise.reject(new Error('no push configs in this spec')),
  };
  const service = new A2aRpcService(
    config,
    new A2aOperations(config, tasks, new InProcessRateLimitWindows(new SlidingWindowRateLimiter(clock)), cards, streams, pushConfigs),
  );
  const handle = async (body: unknown) => {
    const out = await service.handle(
      { peer: 'hermes', origin: () => 'https://claw.example' },
      Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
    );
    if (typeof out !== 'string') throw new Error('a stream was not expected here');
    return out === '' ? '' : JSON.parse(out);
  };
  return { handle, calls, clock, setReply: (r: string) => (reply = r), service };
}

const MESSAGE = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
/** Params every method of this spec can read: SendMessage's message and GetTask's id. */
const PARAMS = { id: 'nope', message: MESSAGE };
/** MESSAGE as the task service receives it. */
const READ_MESSAGE = { messageId: 'm-1', text: 'hi', truncated: false, files: [], returnImmediately: false };
const call = (id: unknown, method = 'SendMessage', params: unknown = PARAMS) => ({ jsonrpc: '2.0', id, method, params });

describe('A2aRpcService', () => {
  it('answers a call with its id and passes the authenticated peer, never anything from the body', async () => {
    const { handle, calls } = await setup();
    expect(await handle(call('r-1'))).toEqual({ jsonrpc: '2.0', id: 'r-1', result: { task: completedTask('ok') } });
    expect(calls).toEqual([{ op: 'send', peer: 'hermes', params: READ_MESSAGE, wait: true }]);
  });

  it('maps errors: -32700, -32600 (with the id when readable), -32601, -32004, domain errors, and internals as -32000', async () => {
    const { handle } = await setup();
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    expect(await handle('{"jsonrpc": "2.0",')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    expect(await handle('42')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
    expect(await handle([])).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
    expect(await handle({ jsonrpc: '1.0', id: 5, method: 'SendMessage' })).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32600, message: 'Invalid Request' },
    });
    expect(await handle({ jsonrpc: '2.0', id: 6, method: 'SendMessage', params: 'x' })).toMatchObject({ id: 6, error: { code: -32600 } });
    expect((await handle(call(7, 'Frobnicate'))).error).toEqual({ code: -32601, message: 'Method not found' });
    // A streaming method needs a response of its own: in a batch it is refused, saying so.
    expect((await handle([call(8, 'SendStreamingMessage')]))[0].error.code).toBe(-32004);
    expect((await handle(call(8, 'CancelTask', { id: 'x' }))).error.code).toBe(-32002);
    expect((await handle(call(9, 'constructor'))).error.code).toBe(-32601);
    expect((await handle(call(10, 'GetTask'))).error).toEqual({
      code: -32001,
      message: 'Task not found',
      data: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'TASK_NOT_FOUND',
          domain: 'a2a-protocol.org',
          metadata: { taskId: 'nope' },
        },
      ],
    });
    const internal = await handle(call(11, 'SendMessage', { message: { ...MESSAGE, parts: [{ text: 'boom' }] } }));
    expect(internal).toEqual({ jsonrpc: '2.0', id: 11, error: { code: -32000, message: 'A2A request could not be processed' } });
    expect(JSON.stringify(internal)).not.toContain('secret');
    // The detail goes to the log only.
    expect(logged.mock.calls.map((c) => String(c[0])).join('\n')).toContain('disk on fire');
    logged.mockRestore();
  });

  it('accepts the 0.3 method names and, without an A2A-Version, answers them in 0.3 form', async () => {
    const { handle, calls } = await setup();
    const v03Message = { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
    expect(await handle(call(1, 'message/send', { message: v03Message, configuration: { blocking: false } }))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        kind: 'task',
        id: 't1',
        contextId: 'ctx-1',
        status: { state: 'completed', timestamp: '2026-01-01T00:00:00.000Z' },
        artifacts: [{ artifactId: 'a1', parts: [{ kind: 'text', text: 'ok' }] }],
        history: [],
      },
    });
    // The task service got the message as read from its 0.3 form.
    expect(calls[0].params).toEqual({ messageId: 'm', text: 'hi', truncated: false, files: [], returnImmediately: true });
    // 0.3 errors: the same codes, no ErrorInfo.
    expect((await handle(call(2, 'tasks/get', { id: 'x' }))).error).toEqual({ code: -32001, message: 'Task not found' });
    expect((await handle(call(3, 'tasks/cancel', { id: 'x' }))).error).toEqual({
      code: -32002,
      message: 'Task cannot be canceled: it is already over',
    });
    expect(await handle(call(4, 'tasks/list', {}))).toEqual({
      jsonrpc: '2.0',
      id: 4,
      result: { tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 },
    });
    expect(calls.map((c) => c.op)).toEqual(['send', 'get', 'cancel', 'list']);
  });

  it('answers in the declared version whatever the method is named', async () => {
    const { service } = await setup();
    const answer = async (method: string, declared: '0.3' | '1.0') => {
      const out = await service.handle(
        { peer: 'hermes', origin: () => 'https://claw.example' },
        Buffer.from(JSON.stringify(call(1, method))),
        { declared },
      );
      if (typeof out !== 'string') throw new Error('a stream was not expected here');
      return JSON.parse(out);
    };
    expect((await answer('message/send', '1.0')).result).toEqual({ task: completedTask('ok') });
    expect((await answer('SendMessage', '0.3')).result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect((await answer('GetTask', '0.3')).error).toEqual({ code: -32001, message: 'Task not found' });
    expect((await answer('tasks/get', '1.0')).error.data[0].reason).toBe('TASK_NOT_FOUND');
  });

  it('hands GetExtendedAgentCard (and its 0.3 name) the calling peer and the origin of the request, and answers the card', async () => {
    const { handle, calls } = await setup();
    const out = await handle(call(5, 'GetExtendedAgentCard'));
    expect(calls).toEqual([{ op: 'card', peer: 'hermes', params: 'https://claw.example 1.0' }]);
    expect(out.result).toMatchObject({ capabilities: { extendedAgentCard: true }, skills: [] });
    expect(out.result.supportedInterfaces[0].url).toBe('https://claw.example/a2a/v1');
    // Asked under its 0.3 name without a version, the card comes in its 0.3 form.
    const v03 = await handle(call(6, 'agent/getAuthenticatedExtendedCard'));
    expect(calls.map((c) => c.params)).toEqual(['https://claw.example 1.0', 'https://claw.example 0.3']);
    expect(v03.result).toMatchObject({ protocolVersion: '0.3.0', url: 'https://claw.example/a2a/v1' });
  });

  it('answers batches in order, skips notifications, and sends an empty body when only notifications came', async () => {
    const { handle, calls } = await setup();
    const out = await handle([call(1), { jsonrpc: '2.0', method: 'SendMessage', params: PARAMS }, call(2, 'Nope'), 17]);
    expect(out).toEqual([
      { jsonrpc: '2.0', id: 1, result: { task: completedTask('ok') } },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } },
    ]);
    // The notification ran without blocking on the agent.
    expect(calls.find((c) => c.wait === false)).toBeDefined();
    expect(await handle({ jsonrpc: '2.0', method: 'GetTask', params: { id: 'x' } })).toBe('');
    expect(await handle([{ jsonrpc: '2.0', method: 'Nope' }])).toBe('');
  });

  it('refuses a batch over 30 entries with one error, without running any of them', async () => {
    const { handle, calls } = await setup();
    const batch = Array.from({ length: 31 }, (_, i) => call(i));
    expect(await handle(batch)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'batch exceeds the 30 request limit' },
    });
    expect(calls).toHaveLength(0);
    expect(await handle(batch.slice(0, 30))).toHaveLength(30);
  });

  it('rate-limits per entry, invalid ones included', async () => {
    const { handle, clock } = await setup(3);
    expect((await handle('not json')).error.code).toBe(-32700);
    const out = await handle([call(1), { bad: true }, call(3), { jsonrpc: '2.0', method: 'SendMessage' }]);
    expect(out).toEqual([
      { jsonrpc: '2.0', id: 1, result: expect.anything() },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'Peer is rate limited' } },
    ]);
    clock.t += 60_000;
    expect((await handle(call(4))).result).toBeDefined();
  });

  it('replaces a response over 1 MiB by -32000, keeping the id; in a batch only the largest entries', async () => {
    const { handle, setReply } = await setup();
    setReply('x'.repeat(1024 * 1024));
    expect(await handle(call('big'))).toEqual({
      jsonrpc: '2.0',
      id: 'big',
      error: { code: -32000, message: 'A2A response exceeds the 1 MiB limit' },
    });
    const batch = await handle([call(1), call(2, 'Nope')]);
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'A2A response exceeds the 1 MiB limit' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } },
    ]);
    setReply('é'.repeat(400 * 1024)); // 800 KiB of UTF-8 in 400 K characters: each fits, two do not
    const two = await handle([call(1), call(2)]);
    expect(two[0].result ?? two[1].result).toBeDefined();
    expect([two[0].error?.code, two[1].error?.code]).toContain(-32000);
  });
});
