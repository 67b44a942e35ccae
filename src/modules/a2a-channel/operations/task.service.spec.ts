import { Logger } from '@nestjs/common';
import { snapshotFrom } from '../../../../test/support/config-snapshot';
import { ServingConfigStore } from '../../../../test/support/serving-config-store';
import { taskAnswers } from '../../../../test/support/a2a-task-answers';
import { RoutingService } from '../../routing/routing.service';
import type { AgentRunner } from '../../runtime/agent-runner.service';
import { RunRecord, RunRegistry } from '../../runtime/run-registry';
import { A2aAttachments } from '../attachments/attachments';
import { A2A_MESSAGES } from '../protocol/limits-and-messages';
import { A2aTaskService } from './task.service';
import type { A2aTask } from '../model/task';
import type { TaskStore } from '../store/task-store.port';

/**
 * Shutdown while a SendMessage is between dispatch and its WORKING write: the store commits on the next
 * turn (as the group commit does) and the close flushes it, so the write lands after the waiter release.
 */
async function setup() {
  const rows = new Map<string, A2aTask>();
  let queued: Array<() => void> = [];
  let closed = false;
  const store: TaskStore = {
    insert: (task) =>
      closed
        ? Promise.reject(new Error('closed'))
        : new Promise<void>((resolve) => {
            queued.push(() => (rows.set(task.id, task), resolve()));
            // The next turn's commit, as the group commit does (close flushes whatever is still queued).
            setImmediate(() => {
              const due = queued;
              queued = [];
              due.forEach((commit) => commit());
            });
          }),
    get: async (id) => rows.get(id),
    transition: async () => {
      if (closed) throw new Error('the A2A task store is closed');
      return undefined;
    },
    appendArtifact: async () => false,
    eventsAfter: async () => [],
    list: async () => [...rows.values()],
    page: async () => ({ tasks: [...rows.values()], total: rows.size }),
    countsSince: async () => [],
    failUnsettled: async () => 0,
    sweep: async () => ({ expired: [], deleted: 0 }),
    close: async () => {
      const flush = queued;
      queued = [];
      flush.forEach((commit) => commit());
      closed = true;
    },
  };
  const runs = new RunRegistry();
  let finishRun: (run: RunRecord) => void = () => undefined;
  const runner: Pick<AgentRunner, 'startRun' | 'abortRun' | 'drain' | 'shutdown'> = {
    drain: async () => undefined,
    abortRun: (runId, reason) => runs.abort(runId, reason),
    startRun: (input) => {
      const { record } = runs.create(input.sessionKey, 'main', 'run-1');
      return { runId: record.runId, done: new Promise<RunRecord>((resolve) => (finishRun = resolve)) };
    },
    shutdown: async () => finishRun(runs.update('run-1', { status: 'aborted', error: 'the gateway is shutting down' })),
  };
  const config = new ServingConfigStore(
    await snapshotFrom({ agents: { list: [{ id: 'main' }] }, channels: { a2a: { replyTimeoutMs: 60_000 } } }),
  );
  // No files in these messages: nothing is written under the state dir.
  const attachments = new A2aAttachments({ stateDir: '/nonexistent-state-dir' });
  return new A2aTaskService(config, new RoutingService(config), runner, store, { now: () => 1_700_000_000_000 }, attachments);
}

describe('A2aTaskService shutdown', () => {
  it('answers a SendMessage whose task was stored during shutdown at once, not after replyTimeoutMs', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const service = await setup();
    const message = { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] } };
    const pending = taskAnswers(service, { maxBytes: 0, mediaTypes: [] }).sendMessage('hermes', message, { wait: true });
    await service.onModuleDestroy();
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise((resolve) => (timer = setTimeout(() => resolve('still waiting'), 1000)));
    const outcome = await Promise.race([pending, hung]);
    clearTimeout(timer);
    expect(outcome).toMatchObject({ task: { contextId: expect.stringMatching(/^ctx-/), status: { state: 'TASK_STATE_WORKING' } } });
    logged.mockRestore();
  });
});

describe('A2aTaskService start after a crash', () => {
  it('fails a task that waited for input with a message saying its run cannot be resumed', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { A2aTaskStore } = await import('../store/sqlite/sqlite-task.store');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-a2a-restart-'));
    const store = new A2aTaskStore(path.join(dir, 'tasks.sqlite'), { terminalRetentionMs: 1e9, maxTerminalPerPeer: 10, idleExpiryMs: 1e9 });
    const base = { peer: 'hermes', contextId: 'ctx-1', messageId: 'm', history: [], createdAt: 1, updatedAt: 1 };
    await store.insert({
      ...base,
      id: 'asking',
      state: 'TASK_STATE_INPUT_REQUIRED',
      statusMessage: { messageId: 'q', text: 'Which city?' },
    });
    await store.insert({ ...base, id: 'working', state: 'TASK_STATE_WORKING' });
    const runner = { startRun: jest.fn(), abortRun: jest.fn(), drain: async () => undefined, shutdown: async () => undefined };
    const config = new ServingConfigStore(await snapshotFrom({ agents: { list: [{ id: 'main' }] } }));
    const warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const attachments = new A2aAttachments({ stateDir: dir });
    const service = new A2aTaskService(config, new RoutingService(config), runner, store, { now: () => 5000 }, attachments);
    await service.onModuleInit();
    expect(await store.get('asking')).toMatchObject({
      state: 'TASK_STATE_FAILED',
      statusMessage: { text: A2A_MESSAGES.restartedWaitingForInput },
    });
    expect((await store.get('asking'))?.history.map((m) => m.text)).toEqual([A2A_MESSAGES.restartedWaitingForInput]);
    expect(await store.get('working')).toMatchObject({ state: 'TASK_STATE_FAILED', statusMessage: { text: A2A_MESSAGES.restarted } });
    await service.onModuleDestroy();
    warned.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  });
});
