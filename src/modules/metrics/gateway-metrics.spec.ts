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
