import { snapshotFrom } from '../../../test/support/config-snapshot';
import type { ConfigStore } from '../config';
import { GatewayMetrics } from './gateway-metrics';

/** Label values that name things come from the config: anything else a caller brings is `other`. */
describe('GatewayMetrics', () => {
  it('counts names the config knows under their name and every other name as "other"', async () => {
    const store = { isLoaded: () => true, current: () => snapshot } as unknown as ConfigStore;
    const snapshot = await snapshotFrom(
      `{ agents: { list: [{ id: "main" }] }, channels: { a2a: { enabled: true, peers: { partner: { token: "t-0123456789abcdef01" } } } } }`,
    );
    const metrics = new GatewayMetrics(store);
    metrics.runEnded('main', 'echo', 'completed', 0.01);
    metrics.runEnded('made-up-agent', 'made-up-provider', 'completed', 0.01);
    metrics.rateLimited('a2a', 'partner');
    metrics.rateLimited('a2a', 'stranger');
    metrics.toolCall('sessions_send', 'ok');
    metrics.toolCall('caller_invented_tool', 'ok');
    metrics.sessionsSend('ok', 40);
    const text = await metrics.text();
    expect(text).toContain('clawgate_runs_total{agent="main",outcome="completed"} 1');
    expect(text).toContain('clawgate_runs_total{agent="other",outcome="completed"} 1');
    expect(text).toContain('clawgate_run_duration_seconds_count{provider="other"} 1');
    expect(text).toContain('clawgate_rate_limited_total{channel="a2a",peer="partner"} 1');
    expect(text).toContain('clawgate_rate_limited_total{channel="a2a",peer="other"} 1');
    expect(text).toContain('clawgate_tool_calls_total{tool="other",outcome="ok"} 1');
    expect(text).toContain('clawgate_sessions_send_total{outcome="ok",hops="16+"} 1');
    expect(text).not.toContain('made-up');
    expect(text).not.toContain('stranger');
  });
});

/** The anonymous view (docs/operations.md#who-may-scrape): the names of the public Agent Card only, the rest merged. */
describe('GatewayMetrics public names', () => {
  const CONFIG = (a2aEnabled: boolean) =>
    `{ agents: { list: [{ id: "desk" }, { id: "vault" }, { id: "ledger" }] },
       channels: { a2a: { enabled: ${a2aEnabled}, exposeAgents: ["desk"], peers: { partner: { token: "t-0123456789abcdef01" } } } } }`;

  async function metricsFor(a2aEnabled: boolean): Promise<GatewayMetrics> {
    const snapshot = await snapshotFrom(CONFIG(a2aEnabled));
    const metrics = new GatewayMetrics({ isLoaded: () => true, current: () => snapshot } as unknown as ConfigStore);
    const memory = [
      { agentId: 'desk', chunks: 5, pending: 0, lagMs: 0 },
      { agentId: 'vault', chunks: 7, pending: 2, lagMs: 4000 },
      { agentId: 'ledger', chunks: 11, pending: 1, lagMs: 9000 },
    ];
    metrics.observeMemoryIndex(() => Promise.resolve(memory));
    metrics.observeMemoryEmbedded(() => new Map([['bundled-static', 42]]));
    metrics.runEnded('vault', 'echo', 'completed', 0.01);
    metrics.runEnded('ledger', 'echo', 'completed', 0.01);
    return metrics;
  }

  it('merges the agents the card does not list: counters and chunk gauges add up, the memory lag is the longest', async () => {
    const text = await (await metricsFor(true)).text('public-names');
    expect(text).toContain('clawgate_runs_total{agent="other",outcome="completed"} 2');
    expect(text).toContain('clawgate_memory_index_chunks{agent="desk"} 5');
    expect(text).toContain('clawgate_memory_index_chunks{agent="other"} 18');
    expect(text).toContain('clawgate_memory_index_pending_chunks{agent="other"} 3');
    expect(text).toContain('clawgate_memory_index_lag_seconds{agent="other"} 9');
    expect(text).not.toMatch(/vault|ledger|echo/);
  });

  it('names no agent while the A2A channel (which serves the card) is off; every name stays in the full view', async () => {
    const metrics = await metricsFor(false);
    const full = await metrics.text('every-name');
    expect(full).toContain('clawgate_memory_index_chunks{agent="vault"} 7');
    // The three memory gauges come from one read per scrape: on the first one too, none of them is a scrape behind.
    expect(full).toContain('clawgate_memory_index_pending_chunks{agent="vault"} 2');
    expect(full).toContain('clawgate_memory_index_lag_seconds{agent="ledger"} 9');
    expect(full).toContain('clawgate_run_duration_seconds_count{provider="echo"} 2');
    expect(full).toContain('clawgate_memory_embedded_chunks_total{embedder="bundled-static"} 42');
    expect(await metrics.text('public-names')).toContain('clawgate_memory_index_chunks{agent="other"} 23');
  });
});
