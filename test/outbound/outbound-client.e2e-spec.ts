import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { ConfigStore } from '../../src/modules/config/config.store';
import { A2aOutboundClient } from '../../src/modules/outbound/a2a-outbound.client';
import { A2aOutboundError } from '../../src/modules/outbound/a2a-outbound-error';
import { problemFromAppError } from '../../src/common/errors/problem-details';
import { GuardedTransport, OutboundAuditEntry } from '../../src/modules/outbound/guarded-transport';
import { answerError, FakeA2aPeer, redirectTo, rpcResult, wireTask } from '../support/fake-a2a-peer';

/**
 * The outbound A2A client against local fake peers (real HTTP, real config pipeline and hot reload), with
 * the transport's test resolver pointing a public-looking name at loopback.
 */
describe('outbound A2A client (fake peers)', () => {
  let dir: string;
  let store: ConfigStore;
  let peer: FakeA2aPeer;
  let elsewhere: FakeA2aPeer;
  let audit: OutboundAuditEntry[];
  let transport: GuardedTransport;
  let client: A2aOutboundClient;

  const config = (p: { outboundToken?: string; extra?: string } = {}) => `{
    agents: { list: [{ id: "main", model: "echo/default" }] },
    channels: { a2a: { enabled: true, replyTimeoutMs: 5000, peers: {
      fake: { token: "inbound-secret-of-fake", url: "${peer.url}"${p.outboundToken ? `, outboundToken: "${p.outboundToken}"` : ''} },
      anon: { token: "inbound-secret-of-anon", url: "${peer.url}" },
      nourl: { token: "inbound-secret-of-nourl" },
      named: { token: "inbound-secret-of-named", url: "http://peer.example.test:${peer.portNumber}/a2a/v1" },
      ${p.extra ?? ''}
    } } },
  }`;
  const reload = async (text: string, expected: string[] = ['applied']) => {
    await fs.writeFile(path.join(dir, 'openclaw.json'), text);
    expect(expected).toContain((await store.reload('admin')).status);
  };
  const failure = async (p: Promise<unknown>): Promise<A2aOutboundError> => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(err instanceof A2aOutboundError)) throw new Error(`expected an A2aOutboundError, got ${String(err)}`);
    return err;
  };
  const methods = () => peer.requests.map((r) => r.body?.method);

  beforeAll(async () => {
    Logger.overrideLogger(false); // the ConfigStore logs through Nest's default logger here
    peer = await new FakeA2aPeer().start();
    elsewhere = await new FakeA2aPeer().start();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-outbound-'));
    await fs.writeFile(path.join(dir, 'openclaw.json'), config({ outboundToken: 'out-token-1' }));
    store = new ConfigStore({ configPath: path.join(dir, 'openclaw.json'), stateDir: path.join(dir, 'state'), env: { HOME: dir } });
    await store.init();
  });
  afterAll(async () => {
    await peer.stop();
    await elsewhere.stop();
    await fs.rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    peer.reset();
    elsewhere.reset();
    audit = [];
    transport = new GuardedTransport({
      audit: (e) => audit.push(e),
      resolver: async (host) => (host === 'peer.example.test' ? [{ address: '127.0.0.1', family: 4 }] : []),
    });
    client = new A2aOutboundClient(store, transport, { pollInitialMs: 20, pollMaxMs: 80 });
    await reload(config({ outboundToken: 'out-token-1' }), ['applied', 'unchanged']);
  });
  afterEach(() => transport.onModuleDestroy());

  it('sends an A2A 1.0 SendMessage with the outboundToken, never the inbound token', async () => {
    const outcome = await client.send('fake', 'hello there');
    expect(outcome).toMatchObject({ status: 'accepted', peer: 'fake', state: 'TASK_STATE_WORKING', method: 'SendMessage' });
    expect(peer.requests).toHaveLength(1);
    const [req] = peer.requests;
    expect(req.path).toBe('/a2a/v1');
    expect(req.headers['a2a-version']).toBe('1.0');
    expect(req.headers.authorization).toBe('Bearer out-token-1');
    expect(req.body).toEqual({
      jsonrpc: '2.0',
      id: expect.any(String),
      method: 'SendMessage',
      params: {
        message: {
          messageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          role: 'ROLE_USER',
          contextId: 'ctx-oc-fake',
          parts: [{ text: 'hello there' }],
        },
        configuration: { returnImmediately: true },
      },
    });
    expect(JSON.stringify(req.headers) + req.raw).not.toContain('inbound-secret-of-fake');
    expect(audit).toEqual([{ kind: 'a2a', host: `127.0.0.1:${peer.portNumber}`, status: 200, durationMs: expect.any(Number) }]);
  });

  it('sends no Authorization header at all when the peer has no outboundToken', async () => {
    await client.send('anon', 'hi');
    expect(peer.requests[0].headers.authorization).toBeUndefined();
    expect(JSON.stringify(peer.requests[0].headers) + peer.requests[0].raw).not.toContain('inbound-secret-of-anon');
  });

  it('retries once as message/send in A2A 0.3 form on -32601, then polls with tasks/get', async () => {
    peer.script(answerError(-32601, 'Method not found'));
    const outcome = await client.send('fake', 'legacy please', { wait: true });
    expect(outcome).toMatchObject({
      status: 'ok',
      method: 'message/send',
      protocolVersion: '0.3',
      state: 'TASK_STATE_COMPLETED',
      reply: 'echo: legacy please',
    });
    expect(methods()).toEqual(['SendMessage', 'message/send', 'tasks/get']);
    // The same message (same id), spelled the 0.3 way, without the 1.0 version header.
    const [first, retry, poll] = peer.requests;
    expect(retry.body.params).toEqual({
      message: {
        kind: 'message',
        messageId: first.body.params.message.messageId,
        role: 'user',
        contextId: 'ctx-oc-fake',
        parts: [{ kind: 'text', text: 'legacy please' }],
      },
      configuration: { blocking: false },
    });
    expect([retry.headers['a2a-version'], poll.headers['a2a-version']]).toEqual([undefined, undefined]);
    expect(retry.headers.authorization).toBe('Bearer out-token-1');
  });

  it('gives up after exactly two requests when message/send is unknown too', async () => {
    peer.script(answerError(-32601, 'Method not found'), answerError(-32601, 'Method not found'));
    const err = await failure(client.send('fake', 'x'));
    expect(err).toMatchObject({ reason: 'rpc', rpcCode: -32601 });
    expect(err.message).toBe('peer fake answered message/send with JSON-RPC error -32601: Method not found');
    expect(methods()).toEqual(['SendMessage', 'message/send']);
  });

  it('does not retry other JSON-RPC errors, and scrubs our tokens from the peer’s message', async () => {
    peer.script(answerError(-32602, 'bad token out-token-1\n\u0007 here'));
    const err = await failure(client.send('fake', 'x'));
    expect(err.message).toBe('peer fake answered SendMessage with JSON-RPC error -32602: bad token *** here');
    expect(methods()).toEqual(['SendMessage']);
  });

  it('refuses a redirect; the Location target never receives a request', async () => {
    peer.script(redirectTo(elsewhere.url));
    const err = await failure(client.send('fake', 'x'));
    expect(err.reason).toBe('refused');
    expect(err.message).toContain('answered with a redirect (HTTP 302); redirects are not followed');
    expect(peer.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('times out a stalled peer (short timeout through the transport options)', async () => {
    const quick = new GuardedTransport({ timeoutMs: 300, audit: () => undefined });
    peer.script(() => 'stall');
    const err = await failure(new A2aOutboundClient(store, quick).send('fake', 'x'));
    await quick.onModuleDestroy();
    expect(err.reason).toBe('timeout');
    expect(err.message).toBe(`peer fake: 127.0.0.1:${peer.portNumber} did not answer within 300 ms`);
    expect(problemFromAppError(err).status).toBe(504);
  });

  it('refuses a 17 MiB answer', async () => {
    peer.script(() => ({ huge: 17 * 1024 * 1024 }));
    const err = await failure(client.send('fake', 'x'));
    expect(err.reason).toBe('refused');
    expect(err.message).toContain('exceeds the 16 MiB limit');
  });

  it('refuses a public-looking peer name that resolves to loopback; nothing reaches the peer', async () => {
    const err = await failure(client.send('named', 'x'));
    expect(err.reason).toBe('refused');
    expect(err.message).toContain('peer.example.test resolves to a loopback address (127.0.0.1)');
    expect(peer.requests).toHaveLength(0);
    // The very same server, configured as http://127.0.0.1:<port>, is allowed.
    expect((await client.send('fake', 'x')).status).toBe('accepted');
  });

  it('polls GetTask with backoff until the task completes', async () => {
    peer.pollsUntilDone = 3;
    const outcome = await client.send('fake', 'ping', { wait: true });
    expect(outcome).toMatchObject({ status: 'ok', state: 'TASK_STATE_COMPLETED', reply: 'echo: ping', contextId: 'ctx-oc-fake' });
    expect(methods()).toEqual(['SendMessage', 'GetTask', 'GetTask', 'GetTask']);
    // It asked for the card first (no card: no streaming), at the origin of the configured URL.
    expect(peer.cardRequests.map((r) => r.path)).toEqual(['/.well-known/agent-card.json']);
    expect(peer.requests[1].body.params).toEqual({ id: outcome.taskId });
    expect(peer.requests.every((r) => r.headers.authorization === 'Bearer out-token-1')).toBe(true);
  });

  it('reports a REJECTED task as an error with the peer’s reason', async () => {
    peer.script((req) => {
      const task = wireTask('t-1', 'ctx-oc-fake', 'TASK_STATE_REJECTED');
      (task.status as Record<string, unknown>).message = { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'no slash commands' }] };
      return rpcResult(req.body.id, { task });
    });
    expect(await client.send('fake', '/reset', { wait: true })).toMatchObject({
      status: 'error',
      taskId: 't-1',
      state: 'TASK_STATE_REJECTED',
      error: 'peer fake reported TASK_STATE_REJECTED: no slash commands',
    });
  });

  it('stops waiting at replyTimeoutMs and reports the task as still running', async () => {
    peer.pollsUntilDone = 1_000_000;
    const outcome = await client.send('fake', 'slow one', { wait: true });
    expect(outcome).toMatchObject({ status: 'timeout', state: 'TASK_STATE_WORKING' });
    expect(outcome.error).toMatch(/^no final answer from peer fake within 5000 ms/);
  }, 15_000);

  it('refuses before any I/O: no url, unknown peer, unresolved outboundToken variable', async () => {
    const noUrl = await failure(client.send('nourl', 'x'));
    expect(noUrl).toMatchObject({ reason: 'no_url', message: 'peer nourl has no url configured for outbound A2A' });
    const unknown = await failure(client.send('ghost', 'x'));
    expect(unknown.message).toBe('no A2A peer "ghost" is configured (channels.a2a.peers; peers with a url: anon, fake, named)');
    await reload(
      config({ extra: 'lost: { token: "inbound-secret-of-lost", url: "http://127.0.0.1:9/a2a/v1", outboundToken: "${LOST_TOKEN}" },' }),
    );
    const unset = await failure(client.send('lost', 'x'));
    expect(unset.message).toBe('peer lost is unusable: the variable of channels.a2a.peers.lost.outboundToken is not set');
    expect(peer.requests).toHaveLength(0);
    expect(audit).toEqual([]);
  });

  it('applies hot reloads per call: rotated token, added and removed peers', async () => {
    await client.send('fake', 'one');
    await reload(config({ outboundToken: 'out-token-2', extra: `late: { token: "inbound-secret-of-late", url: "${elsewhere.url}" },` }));
    await client.send('fake', 'two');
    expect(peer.requests.map((r) => r.headers.authorization)).toEqual(['Bearer out-token-1', 'Bearer out-token-2']);
    expect((await client.send('late', 'hello')).status).toBe('accepted');
    expect(elsewhere.requests).toHaveLength(1);
    await reload(config({ outboundToken: 'out-token-2' }));
    expect((await failure(client.send('late', 'x'))).reason).toBe('unknown_peer');
  });

  it('masks a reply that echoes our tokens whole, even when one token begins with the other', async () => {
    await reload(config({ extra: `overlap: { token: "overlap-secret-long", url: "${peer.url}", outboundToken: "overlap-secret" },` }));
    const outcome = await client.send('overlap', 'overlap-secret-long and overlap-secret', { wait: true });
    expect(outcome).toMatchObject({ status: 'ok', reply: 'echo: *** and ***' });
  });

  it('names the outboundToken setting when the peer rejects our credentials', async () => {
    peer.script(() => ({ status: 401, json: { error: 'unauthorized' } }));
    const err = await failure(client.send('anon', 'x'));
    expect(err).toMatchObject({
      reason: 'auth',
      message: 'peer anon: rejected our credentials (HTTP 401); set channels.a2a.peers.anon.outboundToken',
    });
  });
});
