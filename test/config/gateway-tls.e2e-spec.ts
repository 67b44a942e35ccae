import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigLoadError } from '../../src/modules/config';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/** A throwaway self-signed pair for localhost, made by the machine's openssl for this run only. */
async function makeCertificate(dir: string): Promise<{ certPath: string; keyPath: string; cert: Buffer }> {
  const certPath = path.join(dir, 'cert.pem');
  const keyPath = path.join(dir, 'key.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '1',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ], { stdio: 'ignore' });
  return { certPath, keyPath, cert: await fs.readFile(certPath) };
}

function get(url: string, options: https.RequestOptions = {}): Promise<{ status: number; body: string }> {
  const client = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    client
      .get(url, options, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('gateway.tls: HTTPS on the listener (OpenClaw gateway.tls)', () => {
  let certDir: string;
  let pair: Awaited<ReturnType<typeof makeCertificate>>;
  let gw: TestGateway | undefined;

  beforeAll(async () => {
    certDir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-tls-'));
    pair = await makeCertificate(certDir);
  });
  afterEach(async () => {
    await gw?.stop();
    gw = undefined;
  });
  afterAll(() => fs.rm(certDir, { recursive: true, force: true }));

  it('serves HTTPS with the configured certificate, and nothing in clear', async () => {
    gw = await startTestGateway(
      JSON.stringify({ gateway: { tls: { enabled: true, certPath: pair.certPath, keyPath: pair.keyPath } } }),
    );
    expect(gw.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const res = await get(`${gw.url}/healthz`, { ca: pair.cert });
    expect(res.status).toBe(200);
    // The certificate is checked: without trusting it, the client refuses the connection.
    await expect(get(`${gw.url}/healthz`)).rejects.toThrow(/self[- ]signed/i);
    // A plain HTTP request to the same port gets no HTTP answer.
    await expect(get(gw.url.replace('https:', 'http:') + '/healthz')).rejects.toThrow();
  });

  it('loads the OpenClaw form with enabled: false and serves plain HTTP', async () => {
    gw = await startTestGateway(
      JSON.stringify({ gateway: { tls: { enabled: false, certPath: '/nonexistent/cert.pem', keyPath: '/nonexistent/key.pem' } } }),
    );
    expect(gw.url).toMatch(/^http:\/\//);
    expect((await get(`${gw.url}/healthz`)).status).toBe(200);
  });

  it('refuses to start when a file cannot be read, naming the key and the path', async () => {
    const missing = path.join(certDir, 'missing-key.pem');
    const start = startTestGateway(JSON.stringify({ gateway: { tls: { enabled: true, certPath: pair.certPath, keyPath: missing } } }));
    await expect(start).rejects.toBeInstanceOf(ConfigLoadError);
    await expect(start).rejects.toMatchObject({ issues: [{ path: 'gateway.tls.keyPath', message: `cannot read ${missing} (ENOENT)` }] });
  });

  it('refuses autoGenerate and a missing file path with errors that say what to do', async () => {
    const start = startTestGateway(JSON.stringify({ gateway: { tls: { enabled: true, autoGenerate: true } } }));
    await expect(start).rejects.toMatchObject({
      issues: expect.arrayContaining([
        expect.objectContaining({ path: 'gateway.tls.autoGenerate', message: expect.stringMatching(/does not generate certificates; make a pair/) }),
        { path: 'gateway.tls.certPath', message: 'is required when gateway.tls.enabled is true' },
        { path: 'gateway.tls.keyPath', message: 'is required when gateway.tls.enabled is true' },
      ]),
    });
  });
});
