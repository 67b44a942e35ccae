import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { LogLines } from '../support/log-lines';

/**
 * A configured secret too short to be masked is worth a warning from the first moment the gateway runs with it:
 * the config is loaded before the module graph, so the warning must come from the boot load too, not only from
 * later reloads. The warning names the setting, never the value.
 */
describe('short secrets are reported at start (e2e)', () => {
  const log = new LogLines();
  let gw: TestGateway;
  afterAll(() => gw?.stop());

  it('warns once at boot naming the setting, never the value', async () => {
    gw = await startTestGateway(
      `{ gateway: { admin: { tokens: [{ name: "ops", token: "\${OPS_TOKEN}", role: "admin" }] } }, agents: { list: [{ id: "main" }] } }`,
      { env: { OPS_TOKEN: 'shrt42' }, log: { logFormat: 'json', logLevel: 'info', logTarget: log } },
    );
    const warnings = log.messages.filter((m) => m.includes('shorter than 8 characters'));
    expect(warnings).toEqual([expect.stringContaining('gateway.admin.tokens[0].token')]);
    expect(log.lines.join('\n')).not.toContain('shrt42');
  });
});
