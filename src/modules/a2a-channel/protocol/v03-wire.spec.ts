import { AppError } from '../../../common/errors/app-error';
import { coreResultToV03, errorToV03, taskToV03, v03ParamsToCore } from './v03-wire';
import { jsonRpcErrorOf } from '../bindings/json-rpc/json-rpc';
import { parseListTasksParams, parseSendMessageParams } from './method-params';
import { toListedTask, toWireTask, type A2aTask } from '../model/task';

/** The default file policy (channels.a2a.files). */
const FILES = { maxBytes: 1024 * 1024, mediaTypes: ['text/*', 'application/json'] };

const stored = (extra: Partial<A2aTask> = {}): A2aTask => ({
  id: 't1',
  peer: 'hermes',
  contextId: 'ctx-1',
  messageId: 'm1',
  state: 'TASK_STATE_COMPLETED',
  artifact: { artifactId: 'a1', text: 'the reply' },
  history: [],
  createdAt: Date.UTC(2026, 0, 1),
  updatedAt: Date.UTC(2026, 0, 1, 0, 0, 1),
  ...extra,
});

const v03Send = (message: Record<string, unknown>, configuration?: Record<string, unknown>) => ({
  message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }], ...message },
  ...(configuration ? { configuration } : {}),
});

function invalid(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return `${jsonRpcErrorOf(e).code} ${e.detail}`;
    throw e;
  }
  throw new Error('expected an AppError');
}

describe('A2A 0.3 requests in their 1.0 form', () => {
  it('drops the kind tags, names roles the 1.0 way and keeps everything else', () => {
    const core = v03ParamsToCore(
      'sendMessage',
      v03Send({
        contextId: 'ctx-9',
        parts: [
          { kind: 'text', text: 'a' },
          { kind: 'data', data: { n: 1 } },
          { kind: 'file', file: { uri: 'https://files.example/x' } },
        ],
      }),
    );
    expect(core).toEqual({
      message: {
        messageId: 'm1',
        role: 'ROLE_USER',
        contextId: 'ctx-9',
        parts: [{ text: 'a' }, { data: { n: 1 } }, { file: { uri: 'https://files.example/x' } }],
      },
    });
    // The 1.0 validation reads it as any 1.0 message: the 0.3 file part as the link it is.
    expect(parseSendMessageParams(core, FILES)).toMatchObject({
      messageId: 'm1',
      contextId: 'ctx-9',
      text: 'a\n{"n":1}',
      files: [{ kind: 'url', url: 'https://files.example/x' }],
    });
    expect((v03ParamsToCore('sendMessage', v03Send({ role: 'agent' })) as any).message.role).toBe('ROLE_AGENT');
  });

  it('turns blocking into returnImmediately, and leaves a non-boolean for the 1.0 rules to refuse', () => {
    const immediate = (configuration: Record<string, unknown>) =>
      parseSendMessageParams(v03ParamsToCore('sendMessage', v03Send({}, configuration)), FILES).returnImmediately;
    expect(immediate({ blocking: false, acceptedOutputModes: ['text/plain'] })).toBe(true);
    expect(immediate({ blocking: true })).toBe(false);
    expect(immediate({})).toBe(false);
    expect(invalid(() => parseSendMessageParams(v03ParamsToCore('sendMessage', v03Send({}, { blocking: 'no' })), FILES))).toBe(
      '-32602 Invalid params: configuration.blocking must be a boolean',
    );
  });

  it('refuses a role that is neither user nor agent, naming the 0.3 spellings', () => {
    for (const role of [undefined, 'system', 7]) {
      expect(invalid(() => v03ParamsToCore('sendMessage', v03Send({ role })))).toBe(
        '-32602 Invalid params: message.role is required: "user" or "agent"',
      );
    }
  });

  it('passes what is not a 0.3 shape unchanged, for the 1.0 rules to judge', () => {
    expect(v03ParamsToCore('sendMessage', 'x')).toBe('x');
    expect(v03ParamsToCore('sendMessage', { message: 'x' })).toEqual({ message: 'x' });
    expect(v03ParamsToCore('getTask', { id: 't1', historyLength: 2 })).toEqual({ id: 't1', historyLength: 2 });
  });

  it('reads a ListTasks state filter in 0.3 spelling (1.0 names too) and refuses others with the 0.3 names', () => {
    const state = (status: string) => parseListTasksParams(v03ParamsToCore('listTasks', { status })).state;
    expect(state('input-required')).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(state('completed')).toBe('TASK_STATE_COMPLETED');
    expect(state('TASK_STATE_REJECTED')).toBe('TASK_STATE_REJECTED');
    expect(state('unknown')).toBeUndefined();
    expect(invalid(() => v03ParamsToCore('listTasks', { status: 'done' }))).toBe(
      '-32602 Invalid params: status must be one of submitted, working, completed, failed, canceled, rejected, input-required, auth-required',
    );
  });
});

describe('1.0 results in their 0.3 form', () => {
  it('tags the task, spells the state in kebab case and tags every part', () => {
    expect(taskToV03(toWireTask(stored()))).toEqual({
      kind: 'task',
      id: 't1',
      contextId: 'ctx-1',
      status: { state: 'completed', timestamp: '2026-01-01T00:00:01.000Z' },
      artifacts: [{ artifactId: 'a1', parts: [{ kind: 'text', text: 'the reply' }] }],
      history: [],
    });
  });

  it('writes the status message as a 0.3 agent message', () => {
    const failed = stored({ state: 'TASK_STATE_FAILED', artifact: undefined, statusMessage: { messageId: 's1', text: 'boom' } });
    expect(taskToV03(toWireTask(failed)).status).toEqual({
      state: 'failed',
      timestamp: '2026-01-01T00:00:01.000Z',
      message: {
        kind: 'message',
        messageId: 's1',
        contextId: 'ctx-1',
        taskId: 't1',
        role: 'agent',
        parts: [{ kind: 'text', text: 'boom' }],
      },
    });
  });

  it('answers message/send with the task itself, and keeps ListTasks leaving artifacts out', () => {
    const task = toWireTask(stored({ state: 'TASK_STATE_INPUT_REQUIRED' }));
    expect(coreResultToV03('sendMessage', { task })).toEqual(taskToV03(task));
    expect(coreResultToV03('cancelTask', task)).toMatchObject({ kind: 'task', status: { state: 'input-required' } });
    const page = { tasks: [toListedTask(stored(), false)], nextPageToken: 'n', pageSize: 1, totalSize: 3 };
    const listed = coreResultToV03('listTasks', page) as { tasks: object[] };
    expect(listed).toMatchObject({ nextPageToken: 'n', pageSize: 1, totalSize: 3 });
    expect(listed.tasks[0]).not.toHaveProperty('artifacts');
  });

  it('keeps an error’s code and message and drops the ErrorInfo', () => {
    const data = [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }];
    expect(errorToV03({ code: -32001, message: 'Task not found', data })).toEqual({ code: -32001, message: 'Task not found' });
  });
});
