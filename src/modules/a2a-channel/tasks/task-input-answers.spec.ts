import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { taskBuilder } from '../../../../test/support/task-store-contract';
import { AppError } from '../../../common/errors/app-error';
import { A2aAttachments } from '../attachments/attachments';
import { A2A_MESSAGES } from '../protocol/limits-and-messages';
import { A2aTaskStore } from '../store/sqlite/sqlite-task.store';
import { TaskInputAnswers } from './task-input-answers';
import type { A2aTask } from '../model/task';

const retention = { terminalRetentionMs: 86_400_000, maxTerminalPerPeer: 100, idleExpiryMs: 3_600_000 };
const clock = { now: () => 5000 };

/** The owner's side of a forwarded answer, and the choice between this process's run and the owner's, on a real store. */
describe('TaskInputAnswers', () => {
  let dir: string;
  let store: A2aTaskStore;
  const task = taskBuilder();
  const forwarded: Array<{ taskId: string; text: string; blockMs?: number }> = [];
  let remoteAnswer: A2aTask | undefined;
  let answers: TaskInputAnswers;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-input-answers-'));
    store = new A2aTaskStore(path.join(dir, 'tasks.sqlite'), retention);
    forwarded.length = 0;
    remoteAnswer = undefined;
    const remote = {
      forward: async (t: A2aTask, answer: { text: string }, blockMs?: number) => {
        forwarded.push({ taskId: t.id, text: answer.text, blockMs });
        return remoteAnswer;
      },
    };
    answers = new TaskInputAnswers(store, new A2aAttachments({ stateDir: dir }), clock, remote);
  });
  afterEach(async () => {
    await store.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const waitingTask = async () => {
    const t = task({ state: 'TASK_STATE_INPUT_REQUIRED' });
    await store.insert(t);
    return t;
  };
  const answer = (text: string) => ({ messageId: `m-${text}`, text, files: [] });

  it('a forwarded answer reaches the run of this process that waits: delivered, the task WORKING with the peer message', async () => {
    const t = await waitingTask();
    const waiting = answers.requests.wait(t.id, 10_000, new AbortController().signal);
    expect(await answers.deliverForwarded(t.id, answer('Paris'))).toEqual({ delivered: true });
    expect(await waiting).toEqual({ answer: 'Paris' });
    const stored = await store.get(t.id);
    expect(stored?.state).toBe('TASK_STATE_WORKING');
    expect(stored?.history?.at(-1)).toMatchObject({ messageId: 'm-Paris', role: 'user', text: 'Paris' });
  });

  it('a forwarded answer no run here waits for is refused with -32004 words; so is a second one after the first', async () => {
    const t = await waitingTask();
    const notWaiting = { delivered: false, code: 'UNSUPPORTED_OPERATION', message: A2A_MESSAGES.notWaitingForInput };
    expect(await answers.deliverForwarded(t.id, answer('early'))).toEqual(notWaiting);
    void answers.requests.wait(t.id, 10_000, new AbortController().signal);
    const [first, second] = await Promise.all([
      answers.deliverForwarded(t.id, answer('one')),
      answers.deliverForwarded(t.id, answer('two')),
    ]);
    expect([first, second].filter((r) => r.delivered)).toHaveLength(1);
    expect([first, second].find((r) => !r.delivered)).toEqual(notWaiting);
    expect(await answers.deliverForwarded('no-such-task', answer('x'))).toEqual(notWaiting);
  });

  it('a forwarded answer with a file stores it in this process and gives the run its text', async () => {
    const t = await waitingTask();
    const waiting = answers.requests.wait(t.id, 10_000, new AbortController().signal);
    const file = { kind: 'raw' as const, part: 1, filename: 'notes.txt', mediaType: 'text/plain', bytes: Buffer.from('aisle seat') };
    expect(await answers.deliverForwarded(t.id, { messageId: 'm-f', text: 'Rome', files: [file] })).toEqual({ delivered: true });
    const outcome = (await waiting) as { answer: string };
    expect(outcome.answer).toContain('Rome');
    expect(outcome.answer).toContain('aisle seat');
  });

  it('deliver: the run here first; else, for a task this process does not run, the owner (with the caller’s wait)', async () => {
    const here = await waitingTask();
    void answers.requests.wait(here.id, 10_000, new AbortController().signal);
    const local = await answers.deliver(here, answer('local'), { runsHere: true, blockMs: 100 });
    expect([local.task.state, local.waitHere, forwarded]).toEqual(['TASK_STATE_WORKING', true, []]);

    const elsewhere = await waitingTask();
    remoteAnswer = { ...elsewhere, state: 'TASK_STATE_COMPLETED' };
    const remote = await answers.deliver(elsewhere, answer('remote'), { runsHere: false, blockMs: 250 });
    expect([remote.task.state, remote.waitHere]).toEqual(['TASK_STATE_COMPLETED', false]);
    expect(forwarded).toEqual([{ taskId: elsewhere.id, text: 'remote', blockMs: 250 }]);
  });

  it('deliver: -32004 when no run waits here and no owner elsewhere takes it, or the task runs here, or it is not waiting', async () => {
    const refused = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => e as AppError,
      );
    const t = await waitingTask();
    const noOwner = await refused(answers.deliver(t, answer('x'), { runsHere: false }));
    expect([noOwner?.code, noOwner?.message]).toEqual(['UNSUPPORTED_OPERATION', A2A_MESSAGES.notWaitingForInput]);
    expect(forwarded).toHaveLength(1);
    // Its run is here (between its questions): nobody else to ask.
    expect((await refused(answers.deliver(t, answer('y'), { runsHere: true })))?.code).toBe('UNSUPPORTED_OPERATION');
    const working = task();
    await store.insert(working);
    expect((await refused(answers.deliver(working, answer('z'), { runsHere: false })))?.code).toBe('UNSUPPORTED_OPERATION');
    expect(forwarded).toHaveLength(1);
  });
});
