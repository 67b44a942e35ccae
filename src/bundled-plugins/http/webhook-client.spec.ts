import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GuardedTransport, OutboundAuditEntry } from '../../modules/outbound/guarded-transport';
import { postSignedWebhook } from './webhook-client';
import { verifyWebhookSignature } from './webhook-signature';

describe('postSignedWebhook (through the GuardedTransport)', () => {
  let server: http.Server;
  let base: string;
  let port: number;
  let transport: GuardedTransport;
  const audit: OutboundAuditEntry[] = [];
  const seen: Array<{ url: string; signature: string; body: string }> = [];
  const hook = (url: string) => ({ url, setting: 'channels.http.accounts.desk.webhookUrl' });

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', signature: String(req.headers['x-clawgate-signature']), body });
        if (req.url === '/ok') res.writeHead(200).end('a body nobody reads');
        else if (req.url === '/error') res.writeHead(500).end('secret-looking internals');
        else if (req.url === '/slow')
          return; // never answers; closed in afterAll
        else res.writeHead(307, { Location: '/ok' }).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    transport = new GuardedTransport({
      audit: (e) => audit.push(e),
      // A public-looking name that points at this very loopback server.
      resolver: async () => [{ address: '127.0.0.1', family: 4 }],
    });
  });
  afterAll(async () => {
    await transport.onModuleDestroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    seen.length = 0;
    audit.length = 0;
  });

  it('signs the exact bytes it sends and reports a 2xx as ok', async () => {
    const body = '{"text":"hi"}';
    expect(await postSignedWebhook(transport, hook(`${base}/ok`), body, 'k')).toEqual({ ok: true, status: 200 });
    expect(seen).toEqual([{ url: '/ok', signature: expect.any(String), body }]);
    expect(verifyWebhookSignature(seen[0].body, seen[0].signature, 'k')).toBe(true);
  });

  it('goes through the transport: one audit line of kind webhook, no path', async () => {
    await postSignedWebhook(transport, hook(`${base}/ok`), '{}', 'k');
    expect(audit).toEqual([{ kind: 'webhook', host: `127.0.0.1:${port}`, status: 200, durationMs: expect.any(Number) }]);
  });

  it('reports a non-2xx status without the response body', async () => {
    expect(await postSignedWebhook(transport, hook(`${base}/error`), '{}', 'k')).toEqual({
      ok: false,
      reason: 'webhook answered HTTP 500',
    });
  });

  it('never follows a redirect', async () => {
    const outcome = await postSignedWebhook(transport, hook(`${base}/moved`), '{}', 'k');
    expect(outcome).toEqual({ ok: false, reason: 'webhook answered with a redirect (HTTP 307); redirects are not followed' });
    expect(seen.map((s) => s.url)).toEqual(['/moved']);
  });

  it('gives up after the timeout', async () => {
    expect(await postSignedWebhook(transport, hook(`${base}/slow`), '{}', 'k', 100)).toEqual({
      ok: false,
      reason: 'webhook did not answer within 100 ms',
    });
  });

  it('refuses a webhook host name that resolves to a private address, sending nothing', async () => {
    const outcome = await postSignedWebhook(transport, hook(`http://hooks.example.test:${port}/ok`), '{}', 'k');
    expect(outcome).toEqual({
      ok: false,
      reason: expect.stringMatching(/^webhook refused: hooks\.example\.test resolves to a loopback address/),
    });
    expect(seen).toEqual([]);
  });

  it('names the socket error but not the URL when the receiver is unreachable', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port: gone } = closed.address() as AddressInfo;
    await new Promise((r) => closed.close(r));
    const outcome = await postSignedWebhook(transport, hook(`http://127.0.0.1:${gone}/hook?key=s3cret`), '{}', 'k');
    expect(outcome).toEqual({ ok: false, reason: 'webhook request failed (ECONNREFUSED)' });
  });
});
