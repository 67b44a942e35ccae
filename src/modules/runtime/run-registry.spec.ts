import { MAX_FINISHED_RUNS, RunRegistry } from './run-registry';

describe('RunRegistry lineage', () => {
  it('links runs by parentRunId: children, descendants parents first, live runs and active child sessions', () => {
    const runs = new RunRegistry();
    const root = runs.create('agent:a:main', 'a').record.runId;
    const child = runs.create('agent:a:subagent:1', 'a', undefined, { parentRunId: root, spawnedBy: 'agent:a:main' }).record.runId;
    const grandchild = runs.create('agent:a:subagent:2', 'a', undefined, { parentRunId: child, spawnedBy: 'agent:a:subagent:1' }).record
      .runId;
    const second = runs.create('agent:a:subagent:3', 'a', undefined, { parentRunId: root, spawnedBy: 'agent:a:main' }).record.runId;
    expect(runs.childrenOf(root).map((r) => r.runId)).toEqual([child, second]);
    expect(runs.descendantsOf(root).map((r) => r.runId)).toEqual([child, second, grandchild]);
    expect(runs.descendantsOf(grandchild)).toEqual([]);
    expect([...runs.activeChildSessions('agent:a:main')]).toEqual(['agent:a:subagent:1', 'agent:a:subagent:3']);

    runs.update(second, { status: 'completed' });
    expect([...runs.activeChildSessions('agent:a:main')]).toEqual(['agent:a:subagent:1']);
    expect(runs.liveRuns().map((r) => r.runId)).toEqual([root, child, grandchild]);
    expect(runs.runsSpawnedBy('agent:a:main').map((r) => r.runId)).toEqual([child, second]);
  });

  it('forgets a finished child from its parent’s list with the run itself', () => {
    const runs = new RunRegistry();
    const root = runs.create('agent:a:main', 'a').record.runId;
    const first = runs.create('agent:a:subagent:1', 'a', undefined, { parentRunId: root }).record.runId;
    runs.update(first, { status: 'completed' });
    for (let i = 0; i < MAX_FINISHED_RUNS; i++) {
      const { record } = runs.create('agent:a:other', 'a');
      runs.update(record.runId, { status: 'completed' });
    }
    expect(runs.get(first)).toBeUndefined();
    expect(runs.childrenOf(root)).toEqual([]);
  });
});
