import { isSettled, PeerProtocolError, readSendResult, readState, readTask, replyText, sendMessageParams } from './a2a-wire';
import { backoffDelays, sleep } from './poll-schedule';

describe('A2A wire', () => {
  it('builds the documented SendMessage params', () => {
    expect(sendMessageParams('hermes', 'hi', 'm-1')).toEqual({
      message: { messageId: 'm-1', role: 'ROLE_USER', contextId: 'ctx-oc-hermes', parts: [{ text: 'hi' }] },
      configuration: { returnImmediately: true },
    });
  });

  it('reads a 1.0 `{task}` result with artifacts and status message', () => {
    const view = readSendResult({
      task: {
        id: 't1',
        contextId: 'ctx-oc-x',
        status: { state: 'TASK_STATE_COMPLETED', message: { parts: [{ text: 'done' }] } },
        artifacts: [
          { artifactId: 'a', parts: [{ text: 'line 1' }, { data: { n: 1 } }, { url: 'http://ignored' }] },
          { parts: [{ text: 'line 2' }] },
        ],
      },
    });
    expect(view).toEqual({
      taskId: 't1',
      contextId: 'ctx-oc-x',
      state: 'TASK_STATE_COMPLETED',
      artifactText: 'line 1\n{"n":1}\nline 2',
      statusText: 'done',
    });
    expect(replyText(view)).toBe('line 1\n{"n":1}\nline 2');
  });

  it('reads A2A 0.3 answers: a bare task with lowercase states and kind-tagged parts, or a message', () => {
    expect(
      readSendResult({
        kind: 'task',
        id: 't2',
        status: { state: 'input-required', message: { parts: [{ kind: 'text', text: 'which one?' }] } },
      }),
    ).toEqual({
      taskId: 't2',
      state: 'TASK_STATE_INPUT_REQUIRED',
      statusText: 'which one?',
    });
    expect(readSendResult({ kind: 'message', messageId: 'm', parts: [{ kind: 'text', text: 'hello' }] })).toEqual({
      taskId: null,
      state: 'TASK_STATE_COMPLETED',
      artifactText: 'hello',
    });
    expect(readSendResult({ message: { messageId: 'm', parts: [{ text: 'direct' }], taskId: 't9' } })).toMatchObject({
      taskId: 't9',
      artifactText: 'direct',
    });
  });

  it('falls back to the status message when there is no artifact', () => {
    expect(
      replyText(
        readTask({
          id: 't',
          status: { state: 'TASK_STATE_COMPLETED', message: { parts: [{ text: 'Agent completed without reply text' }] } },
        }),
      ),
    ).toBe('Agent completed without reply text');
  });

  it('refuses what is not a task or message', () => {
    expect(() => readSendResult({ hello: 1 })).toThrow(PeerProtocolError);
    expect(() => readSendResult('task')).toThrow('the SendMessage result is not an object');
    expect(() => readTask({ id: 't', status: { state: 'TASK_STATE_EXPLODED' } })).toThrow('unknown task state "TASK_STATE_EXPLODED"');
    expect(() => readTask({ status: { state: 'working' } })).toThrow('the task has no id');
  });

  it('normalizes states and knows which ones end the wait', () => {
    expect(readState('canceled')).toBe('TASK_STATE_CANCELED');
    expect(readState('auth-required')).toBe('TASK_STATE_AUTH_REQUIRED');
    expect(readState('TASK_STATE_WORKING')).toBe('TASK_STATE_WORKING');
    expect(isSettled('TASK_STATE_WORKING')).toBe(false);
    expect(isSettled('TASK_STATE_SUBMITTED')).toBe(false);
    expect(isSettled('TASK_STATE_REJECTED')).toBe(true);
    expect(isSettled('TASK_STATE_INPUT_REQUIRED')).toBe(true);
  });
});

describe('poll schedule', () => {
  it('doubles from 250 ms up to 4 s and stays there', () => {
    const delays = backoffDelays(250, 4000);
    expect(Array.from({ length: 8 }, () => delays.next().value)).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000, 4000]);
  });

  it('sleep ends early (false) when the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    expect(await sleep(5000, controller.signal)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await sleep(5)).toBe(true);
  });
});
