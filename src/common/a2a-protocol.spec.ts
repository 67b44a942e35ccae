import {
  A2A_LEGACY_METHODS,
  A2A_METHODS,
  A2A_PROTOCOL_VERSION,
  A2A_WIRE_VERSIONS,
  fromV03State,
  isTaskState,
  isTerminalState,
  TASK_STATES,
  toV03State,
  V03_TASK_STATES,
} from './a2a-protocol';

describe('A2A protocol constants', () => {
  it('names the eight A2A 1.0 task states', () => {
    expect(TASK_STATES).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      'TASK_STATE_COMPLETED',
      'TASK_STATE_FAILED',
      'TASK_STATE_CANCELED',
      'TASK_STATE_REJECTED',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_AUTH_REQUIRED',
    ]);
    expect(isTaskState('TASK_STATE_WORKING')).toBe(true);
    expect(isTaskState('TASK_STATE_CANCELLED')).toBe(false);
    expect(isTaskState('completed')).toBe(false);
  });

  it('treats COMPLETED, FAILED, CANCELED and REJECTED as terminal, and only those', () => {
    expect(TASK_STATES.filter(isTerminalState)).toEqual([
      'TASK_STATE_COMPLETED',
      'TASK_STATE_FAILED',
      'TASK_STATE_CANCELED',
      'TASK_STATE_REJECTED',
    ]);
  });

  it('spells the version and the method names of both protocol generations', () => {
    expect(A2A_PROTOCOL_VERSION).toBe('1.0');
    expect(A2A_METHODS).toEqual({
      sendMessage: 'SendMessage',
      sendStreamingMessage: 'SendStreamingMessage',
      subscribeToTask: 'SubscribeToTask',
      getTask: 'GetTask',
      cancelTask: 'CancelTask',
      listTasks: 'ListTasks',
      getExtendedAgentCard: 'GetExtendedAgentCard',
    });
    expect(A2A_LEGACY_METHODS).toEqual({
      sendMessage: 'message/send',
      sendStreamingMessage: 'message/stream',
      subscribeToTask: 'tasks/resubscribe',
      getTask: 'tasks/get',
      cancelTask: 'tasks/cancel',
      listTasks: 'tasks/list',
      getExtendedAgentCard: 'agent/getAuthenticatedExtendedCard',
    });
  });

  it('spells every task state the 0.3 way, one name each, and reads them back', () => {
    expect(A2A_WIRE_VERSIONS).toEqual(['1.0', '0.3']);
    expect(V03_TASK_STATES).toEqual([
      'submitted',
      'working',
      'completed',
      'failed',
      'canceled',
      'rejected',
      'input-required',
      'auth-required',
    ]);
    for (const state of TASK_STATES) expect(fromV03State(toV03State(state))).toBe(state);
    for (const other of ['unknown', 'TASK_STATE_COMPLETED', 'Completed', 'constructor']) expect(fromV03State(other)).toBeUndefined();
  });
});
