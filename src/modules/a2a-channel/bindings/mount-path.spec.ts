import * as net from 'node:net';
import express from 'express';
import { a2aSubpath } from './mount-path';

/** Sends one raw request line, so the target reaches the server byte for byte. */
function rawRequest(port: number, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
    socket.end(`POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  });
}

// Express's own mount is the reference: the fast path must pick the same requests and see the same req.path.
describe('a2aSubpath', () => {
  let server: ReturnType<ReturnType<typeof express>['listen']>;
  let port: number;

  beforeAll(async () => {
    const app = express();
    app.use('/a2a', (req, res) => void res.end(`mounted ${JSON.stringify(req.path)}`));
    app.use((_req, res) => void res.end('not mounted'));
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const targets = [
    '/a2a/v1',
    '/a2a/v1/',
    '/a2a/v1?x=1',
    '/a2a/v1/?x=1',
    '/a2a',
    '/a2a/',
    '/a2a?x',
    '/A2A/v1',
    '/A2a/V1',
    '/a2a/v2',
    '/a2a//v1',
    '/a2a/v1//',
    '/a2a/v1/x',
    '/a2a/%76%31',
    '/a2a/v1;x',
    '/a2a.json',
    '/a2ab/v1',
    '/a2',
    '//a2a/v1',
    '/%61%32%61/v1',
    '/x/a2a/v1',
    '/',
    '/healthz',
    '/a2a/v1#frag',
    'http://example.test/a2a/v1',
  ];

  it.each(targets)('%s: taken exactly when express mounts it, with the same req.path', async (target) => {
    const reply = await rawRequest(port, target);
    const body = reply.slice(reply.indexOf('\r\n\r\n') + 4);
    const sub = a2aSubpath(target);
    if (sub !== undefined) expect(body).toBe(`mounted ${JSON.stringify(sub)}`);
    else if (!target.includes('#') && !target.startsWith('http:')) expect(body).toBe('not mounted');
  });

  it('leaves targets express parses in full (absolute-form, a fragment) to the express mount', () => {
    expect(a2aSubpath('/a2a/v1#frag')).toBeUndefined();
    expect(a2aSubpath('http://example.test/a2a/v1')).toBeUndefined();
    expect(a2aSubpath(undefined)).toBeUndefined();
  });

  it('gives the path after the mount', () => {
    expect(a2aSubpath('/a2a/v1?x=1')).toBe('/v1');
    expect(a2aSubpath('/a2a')).toBe('/');
    expect(a2aSubpath('/A2A/v1/')).toBe('/v1/');
  });
});
