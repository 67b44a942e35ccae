import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveAhead } from './serve-ahead';

describe('serveAhead', () => {
  let server: http.Server;
  let base: string;
  const frameworkSaw: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      frameworkSaw.push(req.url ?? '');
      res.end('framework');
    });
    serveAhead(server, (req, res) => {
      if (!req.url?.startsWith('/fast')) return false;
      res.end('ahead');
      return true;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers what the handler takes without the framework, and hands it everything else', async () => {
    expect(await (await fetch(`${base}/fast/x`)).text()).toBe('ahead');
    expect(await (await fetch(`${base}/other`)).text()).toBe('framework');
    expect(frameworkSaw).toEqual(['/other']);
    // One listener: the framework's own is called through it, not alongside it.
    expect(server.listenerCount('request')).toBe(1);
  });
});
