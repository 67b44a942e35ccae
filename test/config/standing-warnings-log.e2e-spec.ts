import { ConfigStore } from '../../src/modules/config';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { LogLines } from '../support/log-lines';

/**
 * A warning that holds for as long as the config says the same thing — a config warning, a secret too short to
 * mask — is found again by every reload. The log says it when it appears and when it clears ("no longer …"), not
 * on every reload in between; the status keeps listing the config's warnings all along.
 */

const TELEGRAM_WARNING = 'bindings[0].match.channel: channel "telegram" is provided by plugin telegram, which does not run';
const SHORT_SECRET = 'gateway.admin.tokens[0].token: shorter than 8 characters';

const config = ({ agents = ['main'], telegram = true, token = 'shrt42' }) => `{
  gateway: { admin: { tokens: [{ name: "ops", token: "${token}", role: "admin" }] } },
  agents: { list: [${agents.map((id) => `{ id: "${id}" }`).join(', ')}] },
  bindings: [${telegram ? '{ agentId: "main", match: { channel: "telegram" } }' : ''}],
}`;

describe('warnings repeated by every reload (e2e)', () => {
  const log = new LogLines();
  let gw: TestGateway;
  let store: ConfigStore;
  const messagesWith = (text: string) => log.messages.filter((m) => m.includes(text));
  const apply = async (text: string) => {
    await gw.writeConfig(text);
    expect((await store.reload('admin')).status).not.toBe('rejected');
  };

  beforeAll(async () => {
    gw = await startTestGateway(config({}), { log: { logFormat: 'json', logLevel: 'info', logTarget: log } });
    store = gw.app.get(ConfigStore);
  });
  afterAll(() => gw?.stop());

  it('logs each warning once at start', () => {
    expect(messagesWith(TELEGRAM_WARNING)).toHaveLength(1);
    expect(messagesWith(SHORT_SECRET)).toHaveLength(1);
  });

  it('reloads that keep the warnings do not log them again; the status still lists them', async () => {
    await apply(config({ agents: ['main', 'helper'] }));
    await apply(config({ agents: ['main', 'helper', 'third'] }));
    expect(store.current().agentsById.has('third')).toBe(true);
    expect(messagesWith(TELEGRAM_WARNING)).toHaveLength(1);
    expect(messagesWith(SHORT_SECRET)).toHaveLength(1);
    expect(store.status().warnings.map((w) => w.path)).toEqual(['bindings[0].match.channel']);
  });

  it('says when a warning clears, and logs it again if it comes back', async () => {
    await apply(config({ agents: ['main'], telegram: false, token: 'a-long-enough-token-0001' }));
    expect(messagesWith(`config warning no longer applies: ${TELEGRAM_WARNING}`)).toHaveLength(1);
    expect(messagesWith('gateway.admin.tokens[0].token: no longer a secret too short to mask')).toHaveLength(1);
    expect(store.status().warnings).toEqual([]);

    await apply(config({ agents: ['main'], telegram: true, token: 'a-long-enough-token-0001' }));
    expect(messagesWith(`config warning: ${TELEGRAM_WARNING}`)).toHaveLength(2);
  });
});
