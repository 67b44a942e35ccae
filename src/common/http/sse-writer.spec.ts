import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { SseWriter } from './sse-writer';

/** A real server whose one route hands its response to `serve`. */
async function serverWith(serve: (res: http.ServerResponse) => void): Promise<{ url: string; port: number; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => serve(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('SseWriter', () => {
  it('frames events so a standard parser reads back ids, names and multi-line data', async () => {
    const srv = await serverWith((res) => {
      const sse = new SseWriter(res, { maxBufferedBytes: 1 << 20, heartbeatMs: 60_000 });
      sse.open();
      sse.send({ id: '1', data: '{"a":1}' });
      sse.send({ id: '2', event: 'error', data: 'line one\nline two\r\nline three' });
      sse.end();
    });
    const res = await fetch(srv.url);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const seen: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (e) => seen.push(e) });
    parser.feed(await res.text());
    expect(seen).toEqual([
      { id: '1', event: undefined, data: '{"a":1}' },
      { id: '2', event: 'error', data: 'line one\nline two\nline three' },
    ]);
    await srv.close();
  });

  it('reports a client that stops reading once the backlog passes the bound, and writes nothing after end', async () => {
    let outcome: { sent: number; keptUp: boolean; closedAfterEnd: boolean } | undefined;
    const srv = await serverWith((res) => {
      const sse = new SseWriter(res, { maxBufferedBytes: 64 * 1024, heartbeatMs: 60_000 });
      sse.open();
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      let keptUp = true;
      // Bounded: loopback socket buffers hold a few MiB at most; 64 MiB unread must be over the bound.
      while (keptUp && sent < 1024) {
        keptUp = sse.send({ id: String(++sent), data: chunk });
      }
      sse.end();
      outcome = { sent, keptUp, closedAfterEnd: sse.closed };
    });
    // A client that sends its request and then never reads a byte.
    const socket = net.connect(srv.port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    socket.pause();
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => outcome && (clearInterval(poll), resolve()), 10);
    });
    expect(outcome?.keptUp).toBe(false);
    expect(outcome?.sent).toBeLessThan(1024);
    expect(outcome?.closedAfterEnd).toBe(true);
    socket.destroy();
    await srv.close();
  });
});
