import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GuardedTransport, MAX_OUTBOUND_TIMEOUT_MS, OutboundAuditEntry, effectiveTimeout } from './guarded-transport';
import { OutboundError } from './outbound-error';

/** A loopback server answering by path; records every request it sees. */
async function server(handler: http.RequestListener): Promise<{ origin: string; port: number; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const s = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.url = req.url?.split('?')[0];
    handler(req, res);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: async () => {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    },
  };
}

const dest = (url: string) => ({ url, setting: 'test.url' });

async function failure(p: Promise<unknown>): Promise<OutboundError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof OutboundError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

describe('GuardedTransport', () => {
  let target: Awaited<ReturnType<typeof server>>;
  let elsewhere: Awaited<ReturnType<typeof server>>;
  let audit: OutboundAuditEntry[];
  let transport: GuardedTransport;

  beforeAll(async () => {
    elsewhere = await server((_req, res) => res.writeHead(200).end('you should not be here'));
    target = await server((req, res) => {
      if (req.url === '/ok') return void req.on('data', () => undefined).on('end', () => res.writeHead(200).end('{"fine":true}'));
      if (req.url === '/moved') return void res.writeHead(302, { Location: `${elsewhere.origin}/stolen` }).end();
      if (req.url === '/stall') return; // never answers
      if (req.url === '/declared-huge') return void res.writeHead(200, { 'Content-Length': String(17 * 1024 * 1024) }).write('x');
      if (req.url === '/huge') {
        res.writeHead(200);
        const chunk = Buffer.alloc(1024 * 1024, 0x61);
        let sent = 0;
        const pump = () => {
          while (sent < 17) {
            sent++;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        return pump();
      }
      res.writeHead(404).end();
    });
  });
  afterAll(async () => {
    await target.close();
    await elsewhere.close();
  });
  beforeEach(() => {
    audit = [];
    target.seen.length = 0;
    elsewhere.seen.length = 0;
    transport = new GuardedTransport({
      audit: (e) => audit.push(e),
      resolver: async (host) => (host === 'peer.example.test' || host === 'localhost' ? [{ address: '127.0.0.1', family: 4 }] : []),
    });
  });
  afterEach(() => transport.onModuleDestroy());

  it('returns status and body, and audits host, status and duration only', async () => {
    const res = await transport.request({
      kind: 'a2a',
      destination: dest(`${target.origin}/ok?key=s3cret`),
      headers: { Authorization: 'Bearer tok-123' },
      body: 'payload-xyz',
    });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('{"fine":true}');
    expect(audit).toEqual([{ kind: 'a2a', host: `127.0.0.1:${target.port}`, status: 200, durationMs: expect.any(Number) }]);
    expect(JSON.stringify(audit)).not.toMatch(/s3cret|tok-123|payload-xyz|\/ok/);
  });

  it('refuses a redirect and never requests its Location', async () => {
    const err = await failure(transport.request({ kind: 'a2a', destination: dest(`${target.origin}/moved`) }));
    expect(err.failure).toBe('redirect');
    expect(err.message).toBe(`127.0.0.1:${target.port} answered with a redirect (HTTP 302); redirects are not followed`);
    expect(target.seen).toEqual(['POST /moved']);
    expect(elsewhere.seen).toEqual([]);
    expect(audit[0].status).toBe('redirect (HTTP 302)');
  });

  it('gives up after the per-call timeout', async () => {
    const started = Date.now();
    const err = await failure(transport.request({ kind: 'a2a', destination: dest(`${target.origin}/stall`), timeoutMs: 150 }));
    expect(err.failure).toBe('timeout');
    expect(err.message).toBe(`127.0.0.1:${target.port} did not answer within 150 ms`);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(audit[0].status).toBe('timeout');
  });

  it('never allows more than 30 s, whatever is asked', () => {
    expect(effectiveTimeout(120_000)).toBe(MAX_OUTBOUND_TIMEOUT_MS);
    expect(effectiveTimeout(undefined)).toBe(MAX_OUTBOUND_TIMEOUT_MS);
    expect(effectiveTimeout(0)).toBe(MAX_OUTBOUND_TIMEOUT_MS);
    expect(effectiveTimeout(250)).toBe(250);
  });

  it('aborts a body that grows past 16 MiB', async () => {
    const err = await failure(transport.request({ kind: 'a2a', destination: dest(`${target.origin}/huge`) }));
    expect(err.failure).toBe('too_large');
    expect(err.message).toContain('exceeds the 16 MiB limit');
  });

  it('refuses a declared Content-Length past 16 MiB without reading', async () => {
    expect((await failure(transport.request({ kind: 'a2a', destination: dest(`${target.origin}/declared-huge`) }))).failure).toBe(
      'too_large',
    );
  });

  it('refuses a DNS name that resolves to loopback before any byte reaches it', async () => {
    const err = await failure(transport.request({ kind: 'a2a', destination: dest(`http://peer.example.test:${target.port}/ok`) }));
    expect(err.failure).toBe('refused_address');
    expect(err.message).toContain('peer.example.test resolves to a loopback address (127.0.0.1)');
    expect(target.seen).toEqual([]);
    expect(audit[0]).toMatchObject({ host: `peer.example.test:${target.port}`, status: 'refused_address' });
  });

  it('allows loopback when the URL names it literally (IP or localhost)', async () => {
    expect((await transport.request({ kind: 'a2a', destination: dest(`${target.origin}/ok`) })).status).toBe(200);
    expect((await transport.request({ kind: 'a2a', destination: dest(`http://localhost:${target.port}/ok`) })).status).toBe(200);
    expect(target.seen).toEqual(['POST /ok', 'POST /ok']);
  });

  it('refuses non-http schemes and URLs with credentials, naming the setting', async () => {
    expect((await failure(transport.request({ kind: 'a2a', destination: dest('file:///etc/passwd') }))).message).toBe(
      'test.url must be an http or https URL',
    );
    const err = await failure(transport.request({ kind: 'a2a', destination: dest(`http://u:p@127.0.0.1:${target.port}/ok`) }));
    expect(err.message).toBe('test.url must not contain credentials');
    expect(target.seen).toEqual([]);
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await failure(transport.request({ kind: 'a2a', destination: dest(`${target.origin}/stall`), signal: controller.signal }));
    expect(err.failure).toBe('aborted');
  });

  it('names the socket error of an unreachable destination', async () => {
    const closed = await server(() => undefined);
    await closed.close();
    const err = await failure(transport.request({ kind: 'webhook', destination: dest(`${closed.origin}/x`) }));
    expect(err).toMatchObject({ failure: 'network', message: `request to 127.0.0.1:${closed.port} failed (ECONNREFUSED)` });
  });
});
