import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ConfigStore } from '../config';
import type { Approval } from './approval';
import { ApprovalGate, type ApprovalRequest } from './approval-gate';
import { SqliteApprovalStore } from './sqlite-approval.store';
import { waitFor } from '../../../test/support/gateway-harness';

const sqliteConfig = { current: () => ({ config: { gateway: { state: { backend: 'sqlite' } } } }) } as unknown as ConfigStore;

const request = (over: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  agentId: 'ops',
  sessionKey: 'agent:ops:main',
  runId: 'run-1',
  tool: 'session_status',
  toolCallId: 'call-1',
  args: {},
  channel: 'internal',
  timeoutMs: 60_000,
  ...over,
});

describe('ApprovalGate', () => {
  let dir: string;
  let gate: ApprovalGate;
  const open = () => new ApprovalGate(new SqliteApprovalStore(dir), sqliteConfig);
  const nextRequest = () => new Promise<Approval>((resolve) => gate.onChange((a) => a.state === 'pending' && resolve(a)));

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-approval-gate-'));
    gate = open();
  });
  afterEach(async () => {
    await gate.onModuleDestroy().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets the waiting run go on with the decision, and refuses a second one naming the first', async () => {
    const asked = nextRequest();
    const waiting = gate.request(request(), new AbortController().signal);
    const { id } = await asked;
    await gate.decide(id, 'denied', 'token:ops', 'no');
    expect(await waiting).toMatchObject({ id, state: 'denied', decidedBy: 'token:ops', note: 'no' });
    await expect(gate.decide(id, 'approved', 'token:other')).rejects.toThrow(
      /already denied \(by token:ops at .*\); the first decision stands/,
    );
    await expect(gate.decide('nope', 'approved', 'x')).rejects.toThrow('no approval with id nope');
  });

  it('expires a request nobody decided in time, and withdraws one whose run is aborted', async () => {
    expect(await gate.request(request({ timeoutMs: 20 }), new AbortController().signal)).toMatchObject({
      state: 'expired',
      decidedBy: 'timeout',
    });
    const abort = new AbortController();
    const asked = nextRequest();
    const waiting = gate.request(request({ runId: 'run-2' }), abort.signal);
    const { id } = await asked;
    abort.abort(new Error('canceled'));
    expect(await waiting).toMatchObject({ id, state: 'withdrawn', decidedBy: 'run' });
    expect(await gate.get(id)).toMatchObject({ state: 'withdrawn' });
  });

  it('at a stop lets the waiting run go without a decision and keeps the request; the next start resumes it when decided', async () => {
    const abort = new AbortController();
    const asked = nextRequest();
    const waiting = gate.request(request(), abort.signal);
    const { id } = await asked;
    gate.suspendForShutdown();
    abort.abort(new Error('the gateway is shutting down'));
    expect(await waiting).toMatchObject({ state: 'withdrawn', decidedBy: 'shutdown' });
    await gate.onModuleDestroy();
    // What was written stays pending for the next process.
    gate = open();
    expect(await gate.get(id)).toMatchObject({ state: 'pending' });
    const resumed: Approval[] = [];
    gate.addResumer(async (a) => (resumed.push(a), 'run-after'), { fallback: true });
    await gate.onApplicationBootstrap();
    await gate.decide(id, 'approved', 'loopback');
    await waitFor('the resumed run to be recorded', async () => (await gate.get(id))?.resumedBy);
    expect(resumed.map((a) => [a.id, a.state])).toEqual([[id, 'approved']]);
    expect(await gate.get(id)).toMatchObject({ resumedBy: 'run-after' });
  });

  it('asks a channel’s resumer before the fallback, and a request left from before a restart expires at its time', async () => {
    const asked = nextRequest();
    void gate.request(request({ timeoutMs: 300, taskId: 'task-1' }), new AbortController().signal);
    const { id } = await asked;
    gate.suspendForShutdown();
    await gate.onModuleDestroy();
    gate = open();
    const calls: string[] = [];
    gate.addResumer(async () => (calls.push('fallback'), 'fallback-run'), { fallback: true });
    gate.addResumer(async (a) => (calls.push(`channel:${a.state}`), a.taskId ? 'task-run' : undefined));
    await gate.onApplicationBootstrap();
    await waitFor('the left request to expire and resume', async () => (await gate.get(id))?.resumedBy);
    expect(calls).toEqual(['channel:expired']);
    expect(await gate.get(id)).toMatchObject({ state: 'expired', decidedBy: 'timeout', resumedBy: 'task-run' });
  });
});
