import { snapshotFrom } from '../../../../test/support/config-snapshot';
import { ServingConfigStore } from '../../../../test/support/serving-config-store';
import { sqliteTaskService, TaskServiceRunner } from '../../../../test/support/sqlite-task-service';
import type { HeldLease, LaneLeases } from '../../../common/coordination/lane-leases';
import { RunRecord, RunRegistry } from '../../runtime/run-registry';
import { SessionLanes } from '../../runtime/session-lanes';
import type { TaskStore } from '../store/task-store.port';

/**
 * Which A2A runs take a cluster lane lease, and when: a blocking SendMessage in a context the gateway made up takes
 * none unless its task row is written while the run goes on (then before that row), everything else as its run
 * starts. The runs go through the real session lanes over a recording lease port, and their tasks into the real
 * SQLite store with the writes recorded in the same log; a run ends when the test says so.
 */
async function setup() {
  const log: string[] = [];
  let inserted: (state: string) => void = () => undefined;
  /** Each lease is granted at once, or when the test calls `grant` once `holdLeases` was called. */
  let held = false;
  const pending: Array<() => void> = [];
  const leases: LaneLeases = {
    acquire: async (laneId): Promise<HeldLease> => {
      log.push(`lease ${laneId.split(':')[0]}`);
      if (held) await new Promise<void>((resolve) => pending.push(resolve));
      return { token: 1, lost: new AbortController().signal, release: async () => void log.push('release') };
    },
  };
  const lanes = new SessionLanes(() => leases);
  const runs = new RunRegistry();
  const finishers: Array<() => void> = [];
  const runner: TaskServiceRunner = {
    drain: async () => undefined,
    abortRun: (runId, reason) => runs.abort(runId, reason),
    startRun: (input) => {
      const { record } = runs.create(input.sessionKey, 'main');
      const ended = new Promise<RunRecord>((resolve) =>
        finishers.push(() => resolve(runs.update(record.runId, { status: 'completed', reply: 'done' }))),
      );
      return { runId: record.runId, done: lanes.run(input.sessionKey, 'main', () => ended, undefined, input.share) };
    },
    shutdown: async () => undefined,
  };
  const config = new ServingConfigStore(await snapshotFrom({ agents: { list: [{ id: 'main' }] } }));
  const { service, store, cleanup } = await sqliteTaskService({
    tempPrefix: 'clawgate-task-lanes-',
    config,
    runner,
    record: (real) => ({
      insert: (task: Parameters<TaskStore['insert']>[0]) => {
        log.push(`insert ${task.state}`);
        inserted(task.state);
        return real.insert(task);
      },
    }),
  });
  return {
    service,
    log,
    finish: () => finishers.shift()?.(),
    holdLeases: () => (held = true),
    grant: () => pending.shift()?.(),
    store,
    /** Resolves when a row in `state` is handed to the store. */
    insertOf: (state: string) => new Promise<void>((resolve) => (inserted = (s) => s === state && resolve())),
    cleanup,
  };
}

const message = (text: string, contextId?: string) => ({
  message: { messageId: `m-${text}`, role: 'ROLE_USER', parts: [{ text }], ...(contextId ? { contextId } : {}) },
});
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('A2aTaskService lane leases in a cluster', () => {
  let env: Awaited<ReturnType<typeof setup>>;
  afterEach(async () => env.cleanup());

  it('takes no lease for a blocking SendMessage in a new context whose run ends before its row is written', async () => {
    env = await setup();
    const pending = env.service.sendMessage('hermes', message('quick'), { wait: true });
    await tick();
    env.finish();
    expect((await pending).task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(env.log).toEqual(['insert TASK_STATE_COMPLETED']);
  });

  it('takes the lease of a new context’s run that goes on before its WORKING row makes the context known', async () => {
    env = await setup();
    const working = env.insertOf('TASK_STATE_WORKING');
    const pending = env.service.sendMessage('hermes', message('slow'), { wait: true });
    await working;
    expect(env.log).toEqual(['lease main', 'insert TASK_STATE_WORKING']);
    env.finish();
    expect((await pending).task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(env.log).toEqual(['lease main', 'insert TASK_STATE_WORKING', 'release']);
  });

  it('leases a streamed or non-blocking task’s run as it starts', async () => {
    env = await setup();
    const streamed = await env.service.sendMessage('hermes', message('streamed'), { wait: false, stream: true });
    expect(streamed.task.status.state).toBe('TASK_STATE_WORKING');
    await tick();
    expect(env.log).toEqual(['insert TASK_STATE_WORKING', 'lease main']);
    env.finish();
    const immediate = await env.service.sendMessage('hermes', message('immediate'), { wait: false });
    expect(immediate.task.status.state).toBe('TASK_STATE_WORKING');
    expect(env.log.filter((l) => l === 'lease main')).toHaveLength(2);
    env.finish();
  });

  it('leases a blocking run in a context the peer named: that id may be in use on another replica already', async () => {
    env = await setup();
    const pending = env.service.sendMessage('hermes', message('named', 'ctx-of-the-peer'), { wait: true });
    await tick();
    env.finish();
    expect((await pending).task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(env.log).toEqual(['lease main', 'release', 'insert TASK_STATE_COMPLETED']);
  });

  it('records the outcome of a run that ended while its WORKING row waited for the lease after that row', async () => {
    env = await setup();
    env.holdLeases();
    const pending = env.service.sendMessage('hermes', message('ends while leasing'), { wait: true });
    // The WORKING row is due after the row delay: its insert asks for the lease first.
    while (!env.log.length) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(env.log).toEqual(['lease main']);
    env.finish();
    await tick();
    env.grant();
    const { task } = await pending;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await env.store.get(task.id))?.state).toBe('TASK_STATE_COMPLETED');
    expect(env.log).toEqual(['lease main', 'release', 'insert TASK_STATE_WORKING']);
  });
});
