import * as net from 'node:net';
import { Bot, HttpError } from 'grammy';
import { describeTelegramError } from './telegram-errors';

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('describeTelegramError', () => {
  const token = '123456789:AAH-secret_token-value-0123456789abcd';

  it("names a network failure by its code, never by the cause's message that quotes the URL with the token", async () => {
    const bot = new Bot(token, { client: { apiRoot: `http://127.0.0.1:${await closedPort()}` } });
    const error = await bot.api.getMe().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HttpError);
    // What would leak: the fetch error's message is the request URL.
    expect(((error as HttpError).error as Error).message).toContain(token);
    const described = describeTelegramError('work', error);
    expect(described).toBe('account work: the Bot API could not be reached (ECONNREFUSED)');
    expect(described).not.toContain(token.split(':')[1]);
  });

  it('takes a Bot API path out of an error it did not write itself', () => {
    expect(describeTelegramError('a', new Error(`request to http://x/bot${token}/getMe failed`))).toBe(
      'account a: request to http://x/bot<token>/getMe failed',
    );
  });
});
