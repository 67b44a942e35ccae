import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import express from 'express';
import type { AgentCard } from 'a2a-sdk-v03';
import { DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from 'a2a-sdk-v03/server';
import { jsonRpcHandler, UserBuilder } from 'a2a-sdk-v03/server/express';
import { ConfigStore } from '../../src/modules/config/config.store';
import { A2aOutboundClient } from '../../src/modules/outbound/a2a-outbound.client';
import { GuardedTransport } from '../../src/modules/outbound/guarded-transport';
import { FakeA2aPeer } from '../support/fake-a2a-peer';

/**
 * The outbound client against peers that only speak A2A 0.3: a strict fake (records the wire) and the real
 * `@a2a-js/sdk` 0.3 server. A peer pinned with `protocolVersion: "0.3"` is spoken to in 0.3 from the first
 * request; an unpinned one (1.0) falls back to 0.3 once after SendMessage's -32601.
 */

/** A 0.3 echo agent on the SDK's own server: it reads text parts the 0.3 way (by `kind`), then completes. */
async function startSdkV03Peer(): Promise<{ url: string; received: string[]; close: () => Promise<void> }> {
  const app = express();
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a2a/v1`;
  const card: AgentCard = {
    protocolVersion: '0.3.0',
    name: 'sdk 0.3 echo',
    description: 'echo agent on the @a2a-js/sdk 0.3 server',
    version: '1.0.0',
    url,
    preferredTransport: 'JSONRPC',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  };
  const received: string[] = [];
  const executor: AgentExecutor = {
    execute: async ({ userMessage, taskId, contextId }, bus) => {
      const text = userMessage.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('\n');
      received.push(text);
      bus.publish({
        kind: 'task',
        id: taskId,
        contextId,
        status: { state: 'working', timestamp: new Date().toISOString() },
        history: [userMessage],
      });
      // Completes a little later, so the client has to poll tasks/get for the answer.
      setTimeout(() => {
        const artifact = { artifactId: randomUUID(), parts: [{ kind: 'text' as const, text: `sdk echo: ${text}` }] };
        bus.publish({ kind: 'artifact-update', taskId, contextId, artifact });
        bus.publish({
          kind: 'status-update',
          taskId,
          contextId,
          status: { state: 'completed', timestamp: new Date().toISOString() },
          final: true,
        });
        bus.finished();
      }, 30);
    },
    cancelTask: async () => undefined,
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use('/a2a/v1', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return {
    url,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

describe('outbound A2A client to 0.3-only peers', () => {
  let dir: string;
  let store: ConfigStore;
  let peer: FakeA2aPeer;
  let sdk: Awaited<ReturnType<typeof startSdkV03Peer>>;
  let transport: GuardedTransport;
  let client: A2aOutboundClient;

  const config = (pin = '"0.3"') => `{
    agents: { list: [{ id: "main" }] },
    channels: { a2a: { enabled: true, replyTimeoutMs: 5000, peers: {
      old: { token: "inbound-secret-of-old", url: "${peer.url}", outboundToken: "out-token-old", protocolVersion: ${pin} },
      auto: { token: "inbound-secret-of-auto", url: "${peer.url}" },
      sdkpinned: { token: "inbound-secret-of-sdk1", url: "${sdk.url}", protocolVersion: "0.3" },
      sdkauto: { token: "inbound-secret-of-sdk2", url: "${sdk.url}" },
    } } },
  }`;
  const reload = async (text: string) => {
    await fs.writeFile(path.join(dir, 'openclaw.json'), text);
    return store.reload('admin');
  };
  const methods = () => peer.requests.map((r) => r.body?.method);

  beforeAll(async () => {
    Logger.overrideLogger(false);
    peer = await new FakeA2aPeer().start();
    sdk = await startSdkV03Peer();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-outbound-v03-'));
    await fs.writeFile(path.join(dir, 'openclaw.json'), config());
    store = new ConfigStore({ configPath: path.join(dir, 'openclaw.json'), stateDir: path.join(dir, 'state'), env: { HOME: dir } });
    await store.init();
  });
  afterAll(async () => {
    await peer.stop();
    await sdk.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    peer.reset();
    peer.speaks = '0.3';
    transport = new GuardedTransport({ audit: () => undefined });
    client = new A2aOutboundClient(store, transport, { pollInitialMs: 20, pollMaxMs: 80 });
    expect(['applied', 'unchanged']).toContain((await reload(config())).status);
  });
  afterEach(() => transport.onModuleDestroy());

  it('speaks 0.3 from the first request to a pinned peer: message/send, 0.3 parts, no A2A-Version, tasks/get', async () => {
    const outcome = await client.send('old', 'hello old friend', { wait: true });
    expect(outcome).toMatchObject({
      status: 'ok',
      peer: 'old',
      state: 'TASK_STATE_COMPLETED',
      reply: 'echo: hello old friend',
      method: 'message/send',
      protocolVersion: '0.3',
    });
    expect(methods()).toEqual(['message/send', 'tasks/get']);
    const [send, poll] = peer.requests;
    expect(send.body.params).toEqual({
      message: {
        kind: 'message',
        messageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        role: 'user',
        contextId: 'ctx-oc-old',
        parts: [{ kind: 'text', text: 'hello old friend' }],
      },
      configuration: { blocking: false },
    });
    expect(poll.body.params).toEqual({ id: outcome.taskId });
    for (const req of peer.requests) {
      expect(req.headers['a2a-version']).toBeUndefined();
      expect(req.headers.authorization).toBe('Bearer out-token-old');
    }
  });

  it('an unpinned peer gets SendMessage first, then the same message in 0.3 after -32601: three requests in all', async () => {
    const outcome = await client.send('auto', 'are you there?', { wait: true });
    expect(outcome).toMatchObject({ status: 'ok', reply: 'echo: are you there?', method: 'message/send', protocolVersion: '0.3' });
    expect(methods()).toEqual(['SendMessage', 'message/send', 'tasks/get']);
    expect(peer.requests[0].headers['a2a-version']).toBe('1.0');
    expect(peer.requests[1].body.params.message.messageId).toBe(peer.requests[0].body.params.message.messageId);
  });

  it('a peer pinned to "1.0" behaves as the default: 1.0 first, one 0.3 retry', async () => {
    await reload(config('"1.0"'));
    const outcome = await client.send('old', 'pinned to 1.0');
    expect(outcome).toMatchObject({ status: 'accepted', method: 'message/send', protocolVersion: '0.3' });
    expect(methods()).toEqual(['SendMessage', 'message/send']);
  });

  it('applies a changed protocolVersion on the next send (hot)', async () => {
    await reload(config('"1.0"'));
    await client.send('old', 'one');
    await reload(config('"0.3"'));
    await client.send('old', 'two');
    expect(methods()).toEqual(['SendMessage', 'message/send', 'message/send']);
  });

  it('refuses an unknown protocolVersion with a message naming the choices; the running config keeps serving', async () => {
    for (const [pin, got] of [
      ['"2.0"', '(got "2.0")'],
      ['1.0', '(got 1)'],
    ]) {
      const outcome = await reload(config(pin));
      expect(outcome.status).toBe('rejected');
      expect(outcome.errors).toEqual([
        { path: 'channels.a2a.peers.old.protocolVersion', message: `must be the string "1.0" or "0.3" ${got}` },
      ]);
    }
    // Still the pinned 0.3 peer of the last good config.
    await client.send('old', 'still here');
    expect(methods()).toEqual(['message/send']);
  });

  it('talks to the real @a2a-js/sdk 0.3 server, pinned and by fallback; its agent reads the text parts', async () => {
    const pinned = await client.send('sdkpinned', 'from a pinned peer', { wait: true });
    expect(pinned).toMatchObject({
      status: 'ok',
      state: 'TASK_STATE_COMPLETED',
      reply: 'sdk echo: from a pinned peer',
      protocolVersion: '0.3',
    });
    const fallback = await client.send('sdkauto', 'after a fallback', { wait: true });
    expect(fallback).toMatchObject({ status: 'ok', reply: 'sdk echo: after a fallback', method: 'message/send', protocolVersion: '0.3' });
    expect(sdk.received).toEqual(['from a pinned peer', 'after a fallback']);
  });
});
