import request from 'supertest';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { LogLines } from '../support/log-lines';

/**
 * The `config.applied` line says what the change did — the config history's summary, the same words the history
 * keeps — and, when a changed key is read once at start, that it waits for a restart, naming the keys.
 */

const config = (extra: string) => `{
  agents: { list: [{ id: "main" }${extra}] },
}`;

interface AppliedLine {
  level: number;
  event?: string;
  summary?: string | null;
  pendingRestart?: string[];
  msg: string;
}

describe('the config applied line (e2e)', () => {
  const log = new LogLines();
  let gw: TestGateway;
  const appliedLines = () => log.lines.map((l) => JSON.parse(l) as AppliedLine).filter((l) => l.event === 'config.applied');

  beforeAll(async () => {
    gw = await startTestGateway(config(''), { log: { logFormat: 'json', logLevel: 'info', logTarget: log } });
  });
  afterAll(() => gw?.stop());

  it('carries the history summary of the change', async () => {
    await gw.writeConfig(config(', { id: "helper" }'));
    const [line] = await waitFor('the applied line', async () => appliedLines().length === 1 && appliedLines());
    expect(line.level).toBe(30);
    expect(line.msg).toMatch(/^config applied \((watch|poll)\): revision \S+ -> \S+: changed agents; agents added: helper$/);
    expect(line.pendingRestart).toEqual([]);
    const history = await request(gw.url).get('/admin/config/history').expect(200);
    expect(line.summary).toBe(history.body.items[0].summary);
  });

  it('a change that waits for a restart says so, naming the keys, as a warning', async () => {
    await gw.writeConfig(`{ gateway: { port: 18999, telemetry: { sampleRatio: 0.5 } }, ${config(', { id: "helper" }').slice(1)}`);
    const line = await waitFor('the second applied line', async () => appliedLines()[1]);
    expect(line.level).toBe(40);
    expect(line.msg).toContain(': changed gateway; restart required for gateway.port, gateway.telemetry.sampleRatio (read once at start');
    expect(line.pendingRestart).toEqual(['gateway.port', 'gateway.telemetry.sampleRatio']);
  });
});
