import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { PUSH_CONNECTIONS_PER_HOST } from '../../src/modules/a2a-channel/push/push-deliverer';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { hostJose } from '../support/admin-jose';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { PushReceiver } from '../support/push-receiver';

/**
 * A host that accepts connections and never answers (a black hole) must not get a connection per push config: the
 * deliverer holds at most PUSH_CONNECTIONS_PER_HOST to it and the rest wait, while another host's deliveries go out.
 * A real gateway (echo agent), a real black-holing TCP server and a real receiver on another loopback address.
 */
const HERMES = 'hermes-token-0123456789abcdef';
const CONFIGS_TO_THE_BLACK_HOLE = 40;

/** Accepts TCP connections and never writes a byte; counts how many are open at once. */
class BlackHole {
  open = 0;
  maxOpen = 0;
  accepted = 0;
  private readonly sockets = new Set<net.Socket>();
  private readonly server = net.createServer((socket) => {
    this.sockets.add(socket);
    this.accepted++;
    this.maxOpen = Math.max(this.maxOpen, ++this.open);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.open--;
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('A2A push: connections per host (e2e)', () => {
  let gw: TestGateway;
  let hole: BlackHole;
  let other: PushReceiver;
  const rpc = (method: string, params: unknown) => a2aRpc(gw.url, HERMES, method, params);
  /** A task (answered by the echo agent at once) whose one push config points at `url`. */
  const taskPushingTo = async (url: string): Promise<string> => {
    const answer = await rpc('SendMessage', {
      ...userMessage(`push to ${url}`),
      configuration: { returnImmediately: true, taskPushNotificationConfig: { url } },
    });
    expect(answer.error).toBeUndefined();
    return answer.result.task.id as string;
  };

  beforeAll(async () => {
    hostJose(); // deliveries are signed
    hole = await new BlackHole().start();
    other = await new PushReceiver().start('127.0.0.2');
    gw = await startTestGateway(`{
      agents: { list: [{ id: "main", default: true }] },
      channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: {
        hermes: { token: "${HERMES}", pushUrls: ["${hole.origin}/*", "${other.origin}/*"] },
      } } },
    }`);
  });
  afterAll(async () => {
    await gw?.stop();
    await Promise.all([hole?.close(), other?.close()]);
  });

  it(`holds at most ${PUSH_CONNECTIONS_PER_HOST} connections to a black-holed host; another host still gets its events`, async () => {
    for (let i = 0; i < CONFIGS_TO_THE_BLACK_HOLE; i++) await taskPushingTo(`${hole.origin}/hooks/${i}`);
    // Queued after all of those: it must not wait behind them.
    const taskId = await taskPushingTo(`${other.origin}/hooks/other`);
    await waitFor('the other host to get both events of its task', async () => {
      const states = other.bodiesFor(taskId).map((b) => b.statusUpdate?.status.state ?? 'artifact');
      return states.includes('TASK_STATE_COMPLETED');
    });
    await waitFor(`the black hole to hold ${PUSH_CONNECTIONS_PER_HOST} connections`, async () => hole.open >= PUSH_CONNECTIONS_PER_HOST);
    // Room for any further connection an uncapped deliverer would open (it opens all of them at once).
    await new Promise((r) => setTimeout(r, 500));
    expect(hole.maxOpen).toBe(PUSH_CONNECTIONS_PER_HOST);
    expect(hole.accepted).toBe(PUSH_CONNECTIONS_PER_HOST);
    // The rest wait their turn: pending, not one attempt counted against them.
    const { deliveries } = (await request(gw.url).get('/admin/a2a/push?state=pending&limit=500').expect(200)).body;
    const firstEvents = deliveries.filter((d: { url: string; event: number }) => d.url.startsWith(hole.origin) && d.event === 1);
    expect(firstEvents).toHaveLength(CONFIGS_TO_THE_BLACK_HOLE);
    expect(firstEvents.every((d: { attempts: number; lastError?: string }) => d.attempts === 0 && !d.lastError)).toBe(true);
  });
});
