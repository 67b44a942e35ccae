import * as net from 'node:net';
import request from 'supertest';
import { ChannelRegistry } from '../../../src/modules/channels';
import { API_CLIENT } from '../../support/admin-client';
import { startTestGateway, waitFor, type TestGateway } from '../../support/gateway-harness';
import { LogLines } from '../../support/log-lines';

/**
 * A Telegram token is a secret however it reaches the gateway: here it comes only from the TELEGRAM_BOT_TOKEN
 * fallback (no `${VAR}` in the config names it) and the Bot API cannot be reached, so grammY's network error (whose
 * cause quotes the request URL, token and all) is what the account's health, the logs and a send receipt report.
 */
describe('telegram token never shown', () => {
  const token = '7000000001:AAH-env-fallback_token-0123456789abcdef';
  let gw: TestGateway | undefined;
  const saved = process.env.TELEGRAM_BOT_TOKEN;

  afterEach(async () => {
    await gw?.stop();
    gw = undefined;
    if (saved === undefined) delete process.env.TELEGRAM_BOT_TOKEN;
    else process.env.TELEGRAM_BOT_TOKEN = saved;
  });

  it('keeps the env-fallback token out of /admin/channels, the logs and send receipts when the Bot API is unreachable', async () => {
    const port = await closedPort();
    // The plugin reads the fallback from the process's environment; the gateway's own env feeds its masker.
    process.env.TELEGRAM_BOT_TOKEN = token;
    const log = new LogLines();
    gw = await startTestGateway(
      `{
  gateway: { reload: { mode: "off" } },
  agents: { list: [{ id: "main", default: true }] },
  channels: { telegram: { apiRoot: "http://127.0.0.1:${port}" } },
}`,
      { env: { TELEGRAM_BOT_TOKEN: token }, log: { logFormat: 'json', logLevel: 'debug', logTarget: log } },
    );
    const body = await waitFor(
      'the account to report the unreachable Bot API',
      async () => {
        const res = await request(gw!.url).get('/admin/channels').set(API_CLIENT).expect(200);
        const account = (res.body as { channels: { id: string; accounts: { state: string; error?: string }[] }[] }).channels
          .find((c) => c.id === 'telegram')
          ?.accounts.find((a) => a.state === 'reconnecting');
        return account ? res.text : undefined;
      },
      20_000,
    );
    expect(body).toContain('account default: the Bot API could not be reached (ECONNREFUSED)');
    // An announce to the chat: its receipt carries the same error.
    const receipt = await gw.app
      .get(ChannelRegistry)
      .get('telegram')
      ?.send({ sessionKey: 'agent:main:telegram:dm:42', to: '42', accountId: 'default', text: 'hello' });
    expect(receipt).toEqual({ status: 'failed', detail: 'account default: the Bot API could not be reached (ECONNREFUSED)' });
    const everything = [body, JSON.stringify(receipt), ...log.lines].join('\n');
    expect(everything).toContain('ECONNREFUSED');
    expect(everything).not.toContain(token.split(':')[1]);
  });
});

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
