import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { ChannelRegistry } from '../../src/modules/channels/channel-registry';
import { SESSION_STORE, type SessionStore } from '../../src/modules/sessions/session-store.port';
import type { ChannelContext, ChannelInboundMessage, ChannelReplyDelta, ChannelReplyEvent } from '../../src/plugin-sdk';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { writePluginDir } from '../support/plugin-dirs';

/**
 * A channel whose callers are accounts it authenticates itself (`access: "accounts"`, docs/plugins.md#channels), the
 * shape of the http channel: its inbound messages skip the DM and group policies but are routed, run and answered
 * like every channel's (with the run id and every piece of the reply as it is written); its deliveries go out
 * through the gateway's guarded transport (`context.request`), or are kept in the transcript (`stored`).
 */

interface Shared {
  ctx?: ChannelContext;
}
const SHARED = Symbol.for('clawgate.test.integrationChannel');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the very module object the plugin's require returns
const shared = require('node:events') as Record<symbol, Shared>;
shared[SHARED] = {};

const MANIFEST = {
  id: 'hooks',
  version: '0.1.0',
  configSchema: { type: 'object', additionalProperties: false, properties: {} },
  contracts: { channels: ['hook'] },
  activation: 'channel',
  channelConfigs: {
    hook: { schema: { type: 'object', additionalProperties: false, properties: { webhookUrl: { type: 'string' } } } },
  },
};

const CODE = `
const shared = require('node:events')[Symbol.for('clawgate.test.integrationChannel')];
module.exports = {
  register(api) {
    api.registerChannel({
      id: 'hook',
      access: 'accounts',
      start(ctx) { shared.ctx = ctx; },
      stop() { shared.ctx = undefined; },
      async send(message) {
        const ctx = shared.ctx;
        if (message.accountId === 'keeper') return { status: 'stored' };
        try {
          const res = await ctx.request({
            url: ctx.config().webhookUrl + (message.accountId === 'bouncer' ? '/bounce' : '/hook'),
            setting: 'channels.hook.webhookUrl',
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ sessionKey: message.sessionKey, to: message.peer.id, text: message.text }),
            readBody: false,
          });
          return { status: 'delivered', detail: 'webhook answered HTTP ' + res.status };
        } catch (err) {
          return { status: 'failed', detail: err.failure + ': ' + err.message };
        }
      },
    });
  },
};
`;

describe('a channel of authenticated accounts (e2e, echo model)', () => {
  let gw: TestGateway;
  let hook: http.Server;
  let hookUrl: string;
  const received: Array<{ url: string; body: string }> = [];

  beforeAll(async () => {
    hook = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        received.push({ url: req.url ?? '', body });
        if (req.url === '/bounce') res.writeHead(302, { Location: '/elsewhere' }).end();
        else res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}`;
    gw = await startTestGateway(
      `{
        agents: { list: [{ id: "main", default: true }, { id: "desk" }] },
        bindings: [{ agentId: "desk", match: { channel: "hook", accountId: "desk" } }],
        session: { dmScope: "per-channel-peer" },
        channels: { hook: { webhookUrl: "${hookUrl}" } },
        plugins: { load: { paths: ["./plugins"] } },
      }`,
      {
        beforeStart: async (stateDir) => {
          await writePluginDir(path.join(path.dirname(stateDir), 'plugins', 'hooks'), { manifest: MANIFEST, files: { 'index.js': CODE } });
        },
      },
    );
    await waitFor('the hook channel to start', async () => !!shared[SHARED].ctx, 10_000);
  });
  afterAll(async () => {
    await gw?.stop();
    await new Promise((resolve) => hook?.close(resolve));
  });

  const message = (extra: Partial<ChannelInboundMessage>): ChannelInboundMessage => ({
    accountId: 'desk',
    peer: { kind: 'dm', id: 'stranger' },
    sender: { id: 'stranger' },
    messageId: `m-${Math.random()}`,
    text: 'hello',
    mentionsBot: false,
    ...extra,
  });

  it('an unknown sender in a DM and an unmentioned group message are both answered: no policy applies', async () => {
    const deltas: ChannelReplyDelta[] = [];
    const outcome = await shared[SHARED].ctx!.inbound(message({ onReplyDelta: (d) => deltas.push(d) }));
    if (outcome.kind !== 'reply') throw new Error(`expected a reply, got ${JSON.stringify(outcome)}`);
    expect(outcome).toMatchObject({ runId: expect.any(String), agentId: 'desk', sessionKey: 'agent:desk:hook:direct:stranger' });
    const events: ChannelReplyEvent[] = [];
    for await (const event of outcome.events) events.push(event);
    expect(events.at(-1)).toEqual({ type: 'final', text: '[desk] hello' });
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.map((d) => d.text).join('')).toBe('[desk] hello');

    const inGroup = await shared[SHARED].ctx!.inbound(
      message({ accountId: 'other', peer: { kind: 'group', id: 'room' }, text: 'anyone?' }),
    );
    expect(inGroup).toMatchObject({ kind: 'reply', agentId: 'main', sessionKey: 'agent:main:hook:group:room' });
  });

  it('deliveries go out through the guarded transport (no redirects), or stay in the transcript when stored', async () => {
    const send = (accountId: string, sessionKey = 'agent:desk:hook:direct:stranger') =>
      gw.app
        .get(ChannelRegistry)
        .get('hook')!
        .send({ sessionKey, to: 'stranger', text: `for ${accountId}`, accountId });
    received.length = 0;
    expect(await send('desk')).toEqual({ status: 'delivered', detail: 'webhook answered HTTP 204' });
    expect(JSON.parse(received[0].body)).toEqual({ sessionKey: 'agent:desk:hook:direct:stranger', to: 'stranger', text: 'for desk' });
    const bounced = await send('bouncer');
    expect(bounced.status).toBe('failed');
    expect(bounced.detail).toMatch(/^redirect: /);
    expect(received.map((r) => r.url)).toEqual(['/hook', '/bounce']);

    expect(await send('keeper')).toEqual({ status: 'stored' });
    const { lines } = await gw.app.get<SessionStore>(SESSION_STORE).history('agent:desk:hook:direct:stranger');
    expect(lines.at(-1)).toMatchObject({ role: 'assistant', text: 'for keeper', meta: { delivery: 'hook', to: 'stranger' } });
  });
});
