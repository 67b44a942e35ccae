import type { TranscriptLine } from '../sessions';
import { resumedConversation } from './resumed-conversation';

let n = 0;
const line = (role: TranscriptLine['role'], text: string, extra: Partial<TranscriptLine> = {}): TranscriptLine => ({
  id: `l${++n}`,
  ts: '2026-12-07T10:00:00.000Z',
  role,
  text,
  ...extra,
});
const call = (id: string, name: string) => ({ id, name, arguments: {} });

describe('resumedConversation', () => {
  it('gives the conversation to its end and the calls of the last round no tool line answers', () => {
    const lines = [
      line('user', 'earlier'),
      line('assistant', 'done'),
      line('user', 'do two things'),
      line('assistant', '', { toolCalls: [call('c1', 'memory_search'), call('c2', 'session_status'), call('c3', 'sessions_list')] }),
      line('tool', '{"status":"ok"}', { meta: { toolCallId: 'c1', name: 'memory_search' } }),
      line('system', 'run aborted: the gateway is shutting down'),
    ];
    const resumed = resumedConversation(lines)!;
    expect(resumed.unanswered.map((c) => c.id)).toEqual(['c2', 'c3']);
    expect(resumed.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'tool']);
    expect(resumed.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1' });
  });

  it('has nothing to resume when the turn ended or every call was answered', () => {
    expect(resumedConversation([line('user', 'hi'), line('assistant', 'hello')])).toBeUndefined();
    expect(
      resumedConversation([
        line('user', 'hi'),
        line('assistant', '', { toolCalls: [call('c1', 'session_status')] }),
        line('tool', '{}', { meta: { toolCallId: 'c1', name: 'session_status' } }),
      ]),
    ).toBeUndefined();
    expect(resumedConversation([])).toBeUndefined();
  });
});
