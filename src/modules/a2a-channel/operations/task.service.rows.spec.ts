import { Logger } from '@nestjs/common';
import { snapshotFrom } from '../../../../test/support/config-snapshot';
import { ServingConfigStore } from '../../../../test/support/serving-config-store';
import { sqliteTaskService, TaskServiceRunner } from '../../../../test/support/sqlite-task-service';
import { RunRecord, RunRegistry } from '../../runtime/run-registry';
import type { TaskStore } from '../store/task-store.port';

/**
 * When a blocking SendMessage's task row is written: once, settled, for a task that settles at once; as
 * WORKING and then settled for one that runs on; always before the caller is told anything. Over the real
 * SQLite task store, with the writes it is asked for recorded; the runner is a stand-in whose runs finish
 * when the test says so.
 */
async function setup(replyTimeoutMs = 60_000) {
  const writes: string[] = [];
  let failInserts = false;
  const runs = new RunRegistry();
  const finishers = new Map<string, (run: RunRecord) => void>();
  const taskIds: string[] = [];
  const runner: TaskServiceRunner = {
    drain: async () => undefined,
    abortRun: (runId, reason) => {
      const aborted = runs.abort(runId, reason);
      finishers.get(runId)?.(runs.update(runId, { status: 'aborted', error: reason }));
      return aborted;
    },
    startRun: (input) => {
      const { record } = runs.create(input.sessionKey, 'main');
      taskIds.push(String(input.meta?.taskId));
      return { runId: record.runId, done: new Promise<RunRecord>((resolve) => finishers.set(record.runId, resolve)) };
    },
    shutdown: async () => undefined,
  };
  const config = new ServingConfigStore(await snapshotFrom({ agents: { list: [{ id: 'main' }] }, channels: { a2a: { replyTimeoutMs } } }));
  const { service, store, cleanup } = await sqliteTaskService({
    tempPrefix: 'clawgate-task-rows-',
    config,
    runner,
    record: (real) => ({
      insert: (task: Parameters<TaskStore['insert']>[0]) => {
        writes.push(`insert ${task.state}`);
        return failInserts ? Promise.reject(new Error('disk full')) : real.insert(task);
      },
      transition: (...args: Parameters<TaskStore['transition']>) => {
        writes.push(`transition ${args[1].state}`);
        return real.transition(...args);
      },
    }),
  });
  const reply = (text: string) => {
    const [runId, finish] = [...finishers][finishers.size - 1];
    finish(runs.update(runId, { status: 'completed', reply: text }));
  };
  return {
    service,
    store,
    writes,
    reply,
    failInserts: () => (failInserts = true),
    /** The task id of the latest run, as the runner is told it. */
    latestTaskId: () => taskIds[taskIds.length - 1],
    cleanup,
  };
}

const message = (text: string) => ({ message: { messageId: `m-${text}`, role: 'ROLE_USER', parts: [{ text }] } });
const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

describe('A2aTaskService task rows of a blocking SendMessage', () => {
  let env: Awaited<ReturnType<typeof setup>>;
  afterEach(async () => env.cleanup());

  it('writes a task that settles at once in one row, committed before the caller is answered', async () => {
    env = await setup();
    const pending = env.service.sendMessage('hermes', message('quick'), { wait: true });
    await tick();
    env.reply('done');
    const { task } = await pending;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(env.writes).toEqual(['insert TASK_STATE_COMPLETED']);
    expect((await env.store.get(task.id))?.artifact?.text).toBe('done');
  });

  it('gives a task that runs on its WORKING row, so lists and GetTask see it, then settles that row', async () => {
    env = await setup();
    const pending = env.service.sendMessage('hermes', message('slow'), { wait: true });
    await tick(150);
    expect(env.writes).toEqual(['insert TASK_STATE_WORKING']);
    const listed = await env.service.listTasks('hermes', {});
    expect(listed.tasks.map((t) => t.status.state)).toEqual(['TASK_STATE_WORKING']);
    expect((await env.service.getTask('hermes', { id: listed.tasks[0].id })).status.state).toBe('TASK_STATE_WORKING');
    env.reply('late');
    expect((await pending).task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(env.writes).toEqual(['insert TASK_STATE_WORKING', 'transition TASK_STATE_COMPLETED']);
  });

  it('has the WORKING row written when a reply timeout hands the caller a task id to poll', async () => {
    env = await setup(5000);
    const { task } = await env.service.sendMessage('hermes', message('timeout'), { wait: true });
    expect(task.status.state).toBe('TASK_STATE_WORKING');
    expect((await env.store.get(task.id))?.state).toBe('TASK_STATE_WORKING');
    env.reply('after the answer');
  }, 15_000);

  it('fails the caller and aborts the run when the row cannot be stored, instead of answering an unreadable task', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    env = await setup();
    env.failInserts();
    const pending = env.service.sendMessage('hermes', message('lost'), { wait: true });
    await tick();
    env.reply('never stored');
    await expect(pending).rejects.toThrow('disk full');
    logged.mockRestore();
  });

  it('lets the caller’s peer cancel a task before its row exists, and nobody else find it', async () => {
    env = await setup();
    const pending = env.service.sendMessage('hermes', message('cancel me'), { wait: true });
    await tick();
    // Nothing lists it yet; its id is what the run was started with.
    const id = env.latestTaskId();
    expect((await env.service.listTasks('hermes', {})).tasks).toEqual([]);
    await expect(env.service.getTask('iris', { id })).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
    expect((await env.service.getTask('hermes', { id })).status.state).toBe('TASK_STATE_WORKING');
    const canceled = await env.service.cancelTask('hermes', { id });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    expect((await pending).task.status.state).toBe('TASK_STATE_CANCELED');
    expect(env.writes).toEqual(['insert TASK_STATE_CANCELED']);
  });
});
