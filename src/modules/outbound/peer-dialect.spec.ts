import { readSendResult } from './a2a-wire';
import { peerDialect, v03SendMessageParams } from './peer-dialect';

describe('peer dialects', () => {
  it('1.0: SendMessage / GetTask with A2A-Version 1.0 and the proto-JSON message', () => {
    const v10 = peerDialect('1.0');
    expect([v10.sendMethod, v10.getMethod, v10.headers]).toEqual(['SendMessage', 'GetTask', { 'A2A-Version': '1.0' }]);
    expect(v10.sendParams('hermes', 'hi', 'm-1')).toEqual({
      message: { messageId: 'm-1', role: 'ROLE_USER', contextId: 'ctx-oc-hermes', parts: [{ text: 'hi' }] },
      configuration: { returnImmediately: true },
    });
  });

  it('0.3: message/send / tasks/get without a version header, kind-tagged message and part, blocking false', () => {
    const v03 = peerDialect('0.3');
    expect([v03.sendMethod, v03.getMethod, v03.headers]).toEqual(['message/send', 'tasks/get', {}]);
    expect(v03.sendParams).toBe(v03SendMessageParams);
    expect(v03SendMessageParams('hermes', 'hi', 'm-1')).toEqual({
      message: { kind: 'message', messageId: 'm-1', role: 'user', contextId: 'ctx-oc-hermes', parts: [{ kind: 'text', text: 'hi' }] },
      configuration: { blocking: false },
    });
  });

  it('reads the answer of either version whichever was spoken', () => {
    const v03Answer = { kind: 'task', id: 't', status: { state: 'working' } };
    const v10Answer = { task: { id: 't', status: { state: 'TASK_STATE_WORKING' } } };
    expect(readSendResult(v03Answer)).toEqual(readSendResult(v10Answer));
  });
});
