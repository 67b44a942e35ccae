import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError, ErrorCode } from '../../src/plugin-sdk';
import type { TelegramChannel } from '../../src/bundled-plugins/telegram/telegram-channel';

/**
 * The Telegram plugin's webhook routes without the gateway: a real HTTP server at `/plugins/telegram/…` that does what
 * the gateway's plugin routes do for them (the precheck before the body, then the handler; a refusal's AppError as
 * its status). For tests of the plugin alone; the gateway's own routes are tested in telegram-webhook-gateway.
 */
export async function serveTelegramWebhooks(
  channel: () => TelegramChannel | undefined,
  port = 0,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').replace(/^\/plugins\/telegram/, '');
    let answer: { status?: number; body?: unknown } | undefined;
    const current = channel();
    try {
      if (!current) throw new AppError(ErrorCode.NotFound, 'the channel is not running');
      current.webhookAccount(path, req.headers);
    } catch (error) {
      answer = refusal(error);
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!answer) {
        try {
          const rawBody = Buffer.concat(chunks);
          const body = JSON.parse(rawBody.toString('utf8')) as unknown;
          answer = current!.handleWebhook(path, { method: 'POST', path, headers: req.headers, query: {}, rawBody, body });
        } catch (error) {
          answer = refusal(error);
        }
      }
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/plugins/telegram` };
}

function refusal(error: unknown): { status: number; body: unknown } {
  const code = error instanceof AppError ? error.code : undefined;
  const status = code === ErrorCode.Unauthenticated ? 401 : code === ErrorCode.NotFound ? 404 : 500;
  return { status, body: { error: (error as Error).message } };
}
