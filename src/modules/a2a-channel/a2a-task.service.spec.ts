import { Logger } from '@nestjs/common';
import type { ConfigStore } from '../config/config.store';
import type { RoutingService } from '../routing/routing.service';
import type { AgentRunner } from '../runtime/agent-runner.service';
import type { RunRecord } from '../runtime/run-registry';
import { A2aTaskService } from './a2a-task.service';
import type { A2aTask } from './task-model';
import type { TaskStore } from './task-store.port';

/**
 * Shutdown while a SendMessage is between dispatch and its WORKING write: the store commits on the next
 * turn (as the group commit does) and the close flushes it, so the write lands after the waiter release.
 */
function setup() {
  const rows = new Map<string, A2aTask>();
  let queued: Array<() => void> = [];
  let closed = false;
  const store = {
    insert: (task: A2aTask) =>
      closed
        ? Promise.reject(new Error('closed'))
        : new Promise<void>((resolve) => queued.push(() => (rows.set(task.id, task), resolve()))),
    get: async (id: string) => rows.get(id),
    transition: async () => {
      if (closed) throw new Error('the A2A task store is closed');
      return undefined;
    },
    close: async () => {
      const flush = queued;
      queued = [];
      flush.forEach((commit) => commit());
      closed = true;
    },
  } as unknown as TaskStore;
  let finishRun: (run: RunRecord) => void = () => undefined;
  const runner = {
    startRun: () => ({ runId: 'run-1', done: new Promise<RunRecord>((resolve) => (finishRun = resolve)) }),
    shutdown: async () => finishRun({ runId: 'run-1', status: 'aborted', error: 'the gateway is shutting down' } as RunRecord),
    runs: { abort: () => undefined },
  } as unknown as AgentRunner;
  const config = {
    current: () => ({
      config: { agents: [{ id: 'main', identity: {} }], session: { mainKey: 'main' }, channels: { a2a: { exposeAgents: null, replyTimeoutMs: 60_000 } } },
    }),
  } as unknown as ConfigStore;
  const routing = { resolve: () => ({ agentId: 'main', matchedBy: { tier: 'default' } }) } as unknown as RoutingService;
  return new A2aTaskService(config, routing, runner, store, { now: () => 1_700_000_000_000 });
}

describe('A2aTaskService shutdown', () => {
  it('answers a SendMessage whose task was stored during shutdown at once, not after replyTimeoutMs', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const service = setup();
    const message = { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] } };
    const pending = service.sendMessage('hermes', message, { wait: true });
    await service.onModuleDestroy();
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise((resolve) => (timer = setTimeout(() => resolve('still waiting'), 1000)));
    const outcome = await Promise.race([pending, hung]);
    clearTimeout(timer);
    expect(outcome).toMatchObject({ task: { contextId: expect.stringMatching(/^ctx-/), status: { state: 'TASK_STATE_WORKING' } } });
    logged.mockRestore();
  });
});
