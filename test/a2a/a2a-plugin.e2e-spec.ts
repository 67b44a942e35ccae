import request from 'supertest';
import { ChannelRegistry } from '../../src/modules/channels';
import { a2aRpc } from '../support/a2a-rpc';
import { API_CLIENT } from '../support/admin-client';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * The A2A channel is the bundled plugin a2a (docs/plugins.md#bundled-plugins): listed active with its contracts, its
 * channel in /admin/channels like the others, and switched off by naming it — then the applied config says
 * `channels.a2a.enabled: false` with a warning, /a2a and the Agent Card answer 404 — and on again by removing that.
 */

const PEER_TOKEN = 'a2a-plugin-peer-token-0001';

function configText(plugins: string): string {
  return `{
  gateway: { reload: { mode: "off" } },
  agents: { list: [{ id: "main" }] },
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${PEER_TOKEN}" } } } },
  plugins: { ${plugins} },
}`;
}

describe('the bundled plugin a2a (e2e)', () => {
  let gw: TestGateway;
  const bodies: string[] = [];

  const apply = async (plugins: string) => {
    await gw.writeConfig(configText(plugins));
    const res = await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(200);
    expect(res.body.status).toBe('applied');
    bodies.push(res.text);
    return res.body as { warnings: Array<{ path: string; message: string }> };
  };
  const get = async (path: string, status: number) => {
    const res = await request(gw.url).get(path).expect(status);
    bodies.push(res.text);
    return res.body;
  };
  const a2aChannel = async () => ((await get('/admin/channels', 200)).channels as Array<{ id: string }>).find((c) => c.id === 'a2a');

  beforeAll(async () => {
    gw = await startTestGateway(configText(''));
  });
  afterAll(async () => {
    await gw?.stop();
    // No answer of this suite carried the peer's token.
    expect(bodies.length).toBeGreaterThan(5);
    for (const body of bodies) expect(body).not.toContain(PEER_TOKEN);
  });

  it('/admin/plugins/a2a: bundled, active, its contracts declared and its channel registered', async () => {
    expect(await get('/admin/plugins/a2a', 200)).toMatchObject({
      id: 'a2a',
      source: 'bundled',
      name: 'A2A',
      version: '0.1.0',
      status: 'active',
      errors: [],
      declared: { channels: ['a2a'], tools: [], providers: [] },
      registered: { channels: ['a2a'], tools: [], routes: [] },
    });
  });

  it('/admin/channels shows a2a like the other channels, run by the plugin a2a', async () => {
    expect(await a2aChannel()).toMatchObject({
      id: 'a2a',
      plugin: 'a2a',
      enabled: true,
      state: 'running',
      accounts: [{ accountId: 'default', state: 'connected' }],
    });
    await get('/.well-known/agent-card.json', 200);
    expect((await a2aRpc(gw.url, PEER_TOKEN, 'ListTasks', {})).error).toBeUndefined();
  });

  it('plugins.deny: ["a2a"] switches the A2A channel off: a warning says why, /a2a and the card answer 404', async () => {
    const reload = await apply('deny: ["a2a"]');
    expect(reload.warnings).toContainEqual({
      path: 'channels.a2a.enabled',
      message:
        'the A2A channel is off: its plugin a2a is disabled (on plugins.deny); /a2a and the Agent Card answer 404 until the plugin is enabled again',
    });
    expect(await get('/admin/plugins/a2a', 200)).toMatchObject({ status: 'disabled', reason: 'on plugins.deny' });
    expect(await a2aChannel()).toBeUndefined();
    expect(gw.app.get(ChannelRegistry).get('a2a')).toBeUndefined();
    await get('/.well-known/agent-card.json', 404);
    await request(gw.url)
      .post('/a2a/v1')
      .set('Authorization', `Bearer ${PEER_TOKEN}`)
      .send({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} })
      .expect(404);
    expect((await get('/admin/a2a/peers', 200)).enabled).toBe(false);
  });

  it('plugins.entries.a2a.enabled: false does the same; naming it no more brings the channel back', async () => {
    const off = await apply('entries: { a2a: { enabled: false } }');
    expect(off.warnings.find((w) => w.path === 'channels.a2a.enabled')?.message).toContain(
      'its plugin a2a is disabled (plugins.entries.a2a.enabled is false)',
    );
    await get('/.well-known/agent-card.json', 404);

    const on = await apply('');
    expect(on.warnings.filter((w) => w.path === 'channels.a2a.enabled')).toEqual([]);
    expect(await get('/admin/plugins/a2a', 200)).toMatchObject({ status: 'active', registered: { channels: ['a2a'] } });
    expect(await a2aChannel()).toMatchObject({ plugin: 'a2a', state: 'running' });
    await get('/.well-known/agent-card.json', 200);
    expect((await a2aRpc(gw.url, PEER_TOKEN, 'ListTasks', {})).error).toBeUndefined();
  });
});
