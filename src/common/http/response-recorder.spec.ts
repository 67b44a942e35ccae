import { promises as fs } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { recordResponses, type RecordedResponse } from './response-recorder';

describe('recordResponses', () => {
  let dir: string;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-recorder-'));
    server = createServer((req, res) => {
      // Like express below a mount point: the handler sees a rewritten req.url.
      const target = req.url ?? '';
      req.url = '/';
      if (target.startsWith('/stream')) {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write('data: 1\n\n');
        return res.end('data: 2\n\n');
      }
      if (target.startsWith('/head')) {
        res.writeHead(404, { 'Content-Type': 'application/problem+json' });
        return res.end(JSON.stringify({ status: 404 }));
      }
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.write('{"a":');
      res.end(Buffer.from('"é"}'));
    });
    recordResponses(server, dir);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('writes one line per response: the target as received, status, media type and the body as sent', async () => {
    await (await fetch(`${url}/admin/x?limit=1`)).text();
    await (await fetch(`${url}/head/y`, { method: 'POST' })).text();
    await (await fetch(`${url}/stream`)).text();
    const file = path.join(dir, `responses-${process.pid}.jsonl`);
    const read = async () =>
      (await fs.readFile(file, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as RecordedResponse);
    for (let i = 0; i < 50 && (await read().catch(() => [])).length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await read()).toEqual([
      { method: 'GET', url: '/admin/x?limit=1', status: 200, contentType: 'application/json; charset=utf-8', body: '{"a":"é"}' },
      // Content-Type passed straight to writeHead is read from the header block.
      { method: 'POST', url: '/head/y', status: 404, contentType: 'application/problem+json', body: '{"status":404}' },
      // An event stream is not a document: only its status and media type.
      { method: 'GET', url: '/stream', status: 200, contentType: 'text/event-stream' },
    ]);
  });
});
