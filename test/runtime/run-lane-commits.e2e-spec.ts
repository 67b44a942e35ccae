import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { SESSION_STORE, type SessionStore } from '../../src/modules/sessions/session-store.port';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * Turns of one session run one after another, but the next turn does not wait for the previous answer's
 * commit: its question joins that commit. A run is still over only once its answer is on disk.
 */
describe('one session’s runs and their commits (e2e)', () => {
  let gw: TestGateway;
  let runner: AgentRunner;
  let sessions: SessionStore;
  beforeAll(async () => {
    gw = await startTestGateway(`{ agents: { list: [{ id: "main", default: true }] } }`);
    runner = gw.app.get(AgentRunner);
    sessions = gw.app.get<symbol, SessionStore>(SESSION_STORE);
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it('commits a turn’s answer together with the next turn’s question, and ends each run only after its answer is stored', async () => {
    // Event-loop turns, counted, so "committed together" can be told from "committed one turn apart".
    let turn = 0;
    let counting = true;
    const tick = () => {
      turn++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const committed: Array<{ turn: number; line: string }> = [];
    const key = 'agent:main:lane-commits';
    const unsubscribe = sessions.onAppend(() => committed.push({ turn, line: String(committed.length) }));
    const first = runner.startRun({ sessionKey: key, message: 'one' });
    const second = runner.startRun({ sessionKey: key, message: 'two' });
    let firstOver = -1;
    void first.done.then(() => (firstOver = committed.length));
    const [a, b] = await Promise.all([first.done, second.done]);
    counting = false;
    unsubscribe();
    expect([a.status, b.status]).toEqual(['completed', 'completed']);

    const { lines } = await sessions.history(key);
    expect(lines.map((l) => `${l.role}:${l.text}`)).toEqual(['user:one', 'assistant:[main] one', 'user:two', 'assistant:[main] two']);
    // Four appends in three commits: the first answer and the second question in the same one.
    expect(committed).toHaveLength(4);
    expect(committed[1].turn).toBe(committed[2].turn);
    expect(committed[0].turn).toBeLessThan(committed[1].turn);
    expect(committed[2].turn).toBeLessThan(committed[3].turn);

    // "Over" means stored: the first run ended only after its answer's commit (listeners hear of commits only).
    expect(firstOver).toBeGreaterThanOrEqual(2);
  });
});
