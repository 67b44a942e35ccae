import type { RunRecord } from '../runtime';
import {
  excerpt,
  ExchangeRecord,
  interrupted,
  REPLY_EXCERPT_CHARS,
  STEP_REPLY_EXCERPT_CHARS,
  stepOf,
  STOPPED_BEFORE_END,
} from './exchange-record';

const run = (reply: string): RunRecord => ({
  runId: 'r1',
  sessionKey: 'agent:expert:main',
  agentId: 'expert',
  status: 'completed',
  reply,
  queuedAt: '2026-11-29T10:00:00.000Z',
  endedAt: '2026-11-29T10:00:01.000Z',
  toolRounds: 2,
});

describe('exchange records', () => {
  it('keeps a reply whole up to the bound, else its first characters and the whole length', () => {
    expect(stepOf(run('short'))).toEqual({
      runId: 'r1',
      sessionKey: 'agent:expert:main',
      status: 'completed',
      reply: 'short',
      queuedAt: '2026-11-29T10:00:00.000Z',
      endedAt: '2026-11-29T10:00:01.000Z',
    });
    const long = 'x'.repeat(REPLY_EXCERPT_CHARS + 10);
    expect(stepOf(run(long))).toMatchObject({ reply: long.slice(0, REPLY_EXCERPT_CHARS), replyChars: long.length });
    expect(stepOf(run(long), STEP_REPLY_EXCERPT_CHARS).reply).toHaveLength(STEP_REPLY_EXCERPT_CHARS);
  });

  it('never cuts a character in half', () => {
    expect(excerpt('ab😀cd', 3)).toBe('ab');
    expect(excerpt('ab😀cd', 4)).toBe('ab😀');
  });

  it('an interrupted exchange: runs that had not ended failed, an announce not made skipped, ended ones untouched', () => {
    const at = '2026-11-29T11:00:00.000Z';
    const record: ExchangeRecord = {
      runId: 'r1',
      chainId: 'c1',
      requesterSessionKey: 'agent:support:main',
      targetSessionKey: 'agent:expert:main',
      request: 'q',
      state: 'running',
      startedAt: '2026-11-29T10:00:00.000Z',
      updatedAt: '2026-11-29T10:00:00.000Z',
      roundOne: { runId: 'r1', sessionKey: 'agent:expert:main', status: 'completed', reply: 'a' },
      announce: { status: 'pending', step: { runId: 'a1', sessionKey: 'agent:expert:main', status: 'running' } },
    };
    expect(interrupted(record, at)).toEqual({
      ...record,
      state: 'interrupted',
      updatedAt: at,
      endedAt: at,
      announce: {
        status: 'skipped',
        detail: 'the gateway stopped before the announce',
        at,
        step: { runId: 'a1', sessionKey: 'agent:expert:main', status: 'failed', error: STOPPED_BEFORE_END },
      },
    });
  });
});
