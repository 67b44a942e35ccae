import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver {
  url: string;
  /** Every post, in order: the raw body and its signature header. */
  received: Array<{ body: string; signature?: string }>;
  close(): Promise<void>;
}

/** A webhook endpoint on a free loopback port that records what the http channel posts and answers 204. */
export async function startWebhook(): Promise<WebhookReceiver> {
  const received: WebhookReceiver['received'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: req.headers['x-clawgate-signature'] as string | undefined });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
