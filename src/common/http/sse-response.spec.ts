import * as http from 'node:http';
import * as net from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { AddressInfo } from 'node:net';
import { registerSecretSource } from '../secrets/secret-mask';
import { SseResponse } from './sse-response';

describe('SseResponse', () => {
  const SECRET = 'sse-spec-secret-value-123';
  let unregister: () => void;
  beforeAll(() => (unregister = registerSecretSource(() => [SECRET])));
  afterAll(() => unregister());

  /** Serves one request with `write`, then returns what a client received. */
  async function serve(write: (sse: SseResponse) => void | Promise<void>, keepAliveMs?: number) {
    const server = http.createServer((_req, res) => {
      void (async () => {
        const sse = new SseResponse(res, keepAliveMs);
        await write(sse);
        sse.end();
      })();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        buffering: res.headers.get('x-accel-buffering'),
        text: await res.text(),
      };
    } finally {
      server.close();
    }
  }

  it('writes named events, one data line per line of text, and masks secrets', async () => {
    const got = await serve((sse) => {
      sse.json('run', { id: 1 });
      sse.event(undefined, `two\nlines with ${SECRET}`);
    });
    expect(got).toEqual({
      status: 200,
      type: 'text/event-stream; charset=utf-8',
      buffering: 'no',
      text: 'event: run\ndata: {"id":1}\n\ndata: two\ndata: lines with [redacted]\n\n',
    });
  });

  it('sends keep-alive comments while idle after the first event, and drops writes after end', async () => {
    const got = await serve(async (sse) => {
      sse.json('run', {});
      await new Promise((r) => setTimeout(r, 120));
      sse.json('done', {});
      sse.end();
      sse.json('late', {});
    }, 25);
    expect(got.text).toMatch(/^event: run\ndata: \{\}\n\n(: keep-alive\n\n)+event: done\ndata: \{\}\n\n$/);
  });

  it('an empty stream still answers 200 with the event-stream type', async () => {
    const got = await serve(() => undefined);
    expect(got).toMatchObject({ status: 200, type: 'text/event-stream; charset=utf-8', text: '' });
  });

  it('writes event ids that a standard parser reads back', async () => {
    const got = await serve((sse) => {
      sse.event(undefined, '{"a":1}', '1');
      sse.event('error', 'line one\nline two', '2');
    });
    const seen: EventSourceMessage[] = [];
    createParser({ onEvent: (e) => seen.push(e) }).feed(got.text);
    expect(seen).toEqual([
      { id: '1', event: undefined, data: '{"a":1}' },
      { id: '2', event: 'error', data: 'line one\nline two' },
    ]);
  });

  it('reports a client that stops reading once the backlog passes the bound', async () => {
    let outcome: { sent: number; keptUp: boolean } | undefined;
    const server = http.createServer((_req, res) => {
      const sse = new SseResponse(res, { maxBufferedBytes: 64 * 1024 });
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      let keptUp = true;
      // Bounded: loopback socket buffers hold a few MiB at most; 64 MiB unread must be over the bound.
      while (keptUp && sent < 1024) keptUp = sse.event(undefined, chunk, String(++sent));
      sse.end();
      outcome = { sent, keptUp };
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    // A client that sends its request and then never reads a byte.
    const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    socket.pause();
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => outcome && (clearInterval(poll), resolve()), 10);
    });
    expect(outcome?.keptUp).toBe(false);
    expect(outcome?.sent).toBeLessThan(1024);
    socket.destroy();
    server.closeAllConnections();
    server.close();
  });
});
