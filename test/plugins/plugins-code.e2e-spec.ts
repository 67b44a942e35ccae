import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { GatewayMetrics } from '../../src/modules/metrics';
import { AppError, definePlugin, ErrorCode, type CodePlugin } from '../../src/plugin-sdk';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

const PEER_TOKEN = 'plugins-e2e-peer-token-5f6e7d';
const TOKENS = { viewer: 'plugins-viewer-token-1a2b3c', operator: 'plugins-operator-token-4d5e6f' };

/** What the plugins saw, for the assertions. */
const seen = { messages: [] as string[], serviceStarts: 0, serviceStops: 0, stateDir: '', toolSessions: [] as string[] };

const weather: CodePlugin = definePlugin({
  id: 'weather',
  version: '1.2.0',
  description: 'Forecasts for the agents',
  register(api) {
    api.registerTool<{ city: string }>({
      name: 'weather_lookup',
      description: 'The forecast of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
      execute: ({ city }, ctx) => {
        seen.toolSessions.push(ctx.sessionKey);
        api.count('lookups');
        if (city === 'Atlantis') throw new AppError(ErrorCode.NotFound, `no forecast for ${city}`);
        return { city, forecast: `sunny in ${city}` };
      },
    });
    api.registerHttpRoute({ method: 'GET', path: '/status', auth: 'public', handle: () => ({ body: { ok: true } }) });
    api.registerHttpRoute({
      method: 'POST',
      path: '/cities/:name',
      auth: 'operator',
      handle: (req) => ({ status: 201, body: { name: req.params.name, body: req.body } }),
    });
    api.registerService({
      id: 'poller',
      start: () => {
        seen.serviceStarts++;
      },
      stop: () => {
        seen.serviceStops++;
      },
    });
    api.on('message_received', (event) => {
      seen.messages.push(`${event.channel}:${event.text}`);
    });
    seen.stateDir = api.stateDir;
  },
});

const broken: CodePlugin = {
  id: 'broken',
  register() {
    throw new Error('boom while registering');
  },
};

/** A before_tool_call handler that never answers: skipped after the budget, the call goes on. */
const stuck: CodePlugin = {
  id: 'stuck',
  register(api) {
    api.on('before_tool_call', () => new Promise(() => undefined));
  },
};

const gatekeeper: CodePlugin = {
  id: 'gatekeeper',
  register(api) {
    api.on('before_tool_call', (event) => (event.tool === 'session_status' ? { refuse: 'status is private here' } : undefined));
  },
};

/** Takes a name the core has: refused at registerTool, so the plugin fails and nothing of it stays. */
const squatter: CodePlugin = {
  id: 'squatter',
  register(api) {
    api.registerHttpRoute({ method: 'GET', path: '/x', auth: 'public', handle: () => ({ body: 'x' }) });
    api.registerTool({ name: 'session_status', description: 'mine', parameters: { type: 'object' }, execute: () => 'mine' });
  },
};

describe('plugins given in code (e2e: real gateway, real ports, a scripted OpenAI-compatible model)', () => {
  let model: FakeOpenAiServer;
  let gw: TestGateway;

  const config = () => `{
    gateway: { admin: { tokens: [
      { name: "viewer", token: "${TOKENS.viewer}", role: "viewer" },
      { name: "operator", token: "${TOKENS.operator}", role: "operator" },
    ] } },
    models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
    agents: { list: [{ id: "main", default: true, model: "fake/gpt-test" }] },
    channels: { a2a: { enabled: true, rateLimitPerMinute: 0, replyTimeoutMs: 10000, peers: { hermes: { token: "${PEER_TOKEN}" } } } },
  }`;

  const send = async (text: string) => {
    const res = await request(gw.url)
      .post('/a2a/v1')
      .set('Authorization', `Bearer ${PEER_TOKEN}`)
      .send({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] } },
      })
      .expect(200);
    return res.body.result?.task as { status: { state: string }; artifacts: Array<{ parts: Array<{ text: string }> }> };
  };
  const admin = (url: string, token = TOKENS.viewer) => request(gw.url).get(url).set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    gw = await startTestGateway(config(), { plugins: [weather, broken, stuck, gatekeeper, squatter] });
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
  });
  beforeEach(() => model.reset());

  it('an agent calls the plugin tool through the model, and the result reaches the reply', async () => {
    model.script(
      model.toolCall('weather_lookup', { city: 'Lisbon' }),
      model.textFromToolResult((result) => `Here it is: ${result}`),
    );
    const task = await send('weather in Lisbon?');
    expect(model.violations).toEqual([]);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const reply = task.artifacts[0].parts[0].text;
    expect(reply).toContain('sunny in Lisbon');
    expect(JSON.parse(reply.replace('Here it is: ', ''))).toEqual({
      status: 'ok',
      result: { city: 'Lisbon', forecast: 'sunny in Lisbon' },
    });
    // The model was offered the plugin tool beside the built-in ones.
    expect(model.requests[0].body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('weather_lookup');
    expect(seen.toolSessions).toEqual([expect.stringMatching(/^agent:main:a2a:/)]);
    // The stuck hook was skipped once its budget ran out (the run went on), and counted.
    const metrics = await gw.app.get(GatewayMetrics).text();
    expect(metrics).toContain('clawgate_plugin_hook_failures_total{plugin="stuck",hook="before_tool_call",reason="timeout"} 1');
    expect(metrics).toContain('clawgate_plugin_events_total{plugin="weather",event="lookups"} 1');
    expect(seen.messages).toContain('a2a:weather in Lisbon?');
  });

  it('bad arguments never reach execute, and a thrown AppError maps like a built-in tool error', async () => {
    model.script(
      model.toolCall('weather_lookup', { town: 'Porto' }),
      model.textFromToolResult((r) => r),
    );
    const invalid = await send('bad args');
    expect(JSON.parse(invalid.artifacts[0].parts[0].text)).toEqual({
      status: 'error',
      error: 'invalid arguments for weather_lookup: missing required argument "city"; unknown argument "town"',
    });
    model.script(
      model.toolCall('weather_lookup', { city: 'Atlantis' }),
      model.textFromToolResult((r) => r),
    );
    const missing = await send('atlantis');
    expect(JSON.parse(missing.artifacts[0].parts[0].text)).toEqual({
      status: 'not_found',
      error: 'weather_lookup failed: no forecast for Atlantis',
    });
  });

  it('a before_tool_call hook may refuse a call: the model reads the reason', async () => {
    model.script(
      model.toolCall('session_status', {}),
      model.textFromToolResult((r) => r),
    );
    const task = await send('status?');
    expect(JSON.parse(task.artifacts[0].parts[0].text)).toEqual({
      status: 'forbidden',
      error: 'session_status refused by plugin gatekeeper: status is private here',
    });
  });

  it('GET /admin/plugins: each plugin with its status; a viewer may read it', async () => {
    const { body } = await admin('/admin/plugins').expect(200);
    const byId = Object.fromEntries(body.plugins.map((p: { id: string }) => [p.id, p]));
    // The bundled chat plugins are listed too (disabled: their channels are not configured).
    expect(Object.keys(byId)).toEqual([
      'telegram',
      'discord',
      'slack',
      'http',
      'openai-endpoint',
      'a2a',
      'weather',
      'broken',
      'stuck',
      'gatekeeper',
      'squatter',
    ]);
    expect(byId.weather).toMatchObject({
      source: 'code',
      version: '1.2.0',
      status: 'active',
      errors: [],
      registered: {
        tools: ['weather_lookup'],
        routes: ['GET /plugins/weather/status', 'POST /plugins/weather/cities/:name'],
        services: ['poller'],
        hooks: ['message_received'],
      },
      config: {},
    });
    expect(byId.broken).toMatchObject({ status: 'failed', errors: ['register(api) threw: boom while registering'] });
    expect(byId.squatter).toMatchObject({
      status: 'failed',
      errors: ['register(api) threw: registerTool: tool "session_status" is already registered by the gateway'],
      registered: { tools: [], routes: [] },
    });
    const one = await admin('/admin/plugins/weather').expect(200);
    expect(one.body).toEqual(byId.weather);
    const unknown = await admin('/admin/plugins/nope').expect(404);
    expect(unknown.body.detail).toBe(
      'no plugin "nope"; known: telegram, discord, slack, http, openai-endpoint, a2a, weather, broken, stuck, gatekeeper, squatter',
    );
    await request(gw.url).get('/admin/plugins').expect(401);
  });

  it('a failed plugin leaves nothing behind and the gateway serves A2A and admin', async () => {
    // The squatter's route was staged before its tool was refused: it never went live.
    await request(gw.url).get('/plugins/squatter/x').expect(404);
    await request(gw.url).get('/plugins/broken/anything').expect(404);
    model.script(model.text('still here'));
    expect((await send('hello')).artifacts[0].parts[0].text).toBe('still here');
    await admin('/admin/config/status').expect(200);
  });

  it('routes: public answers anyone; an admin-role route answers 401 without identity, 403 below its role, 200 at it', async () => {
    expect((await request(gw.url).get('/plugins/weather/status').expect(200)).body).toEqual({ ok: true });
    const post = (token?: string) => {
      const r = request(gw.url).post('/plugins/weather/cities/Faro').send({ pop: 60000 });
      return token ? r.set('Authorization', `Bearer ${token}`) : r;
    };
    const anonymous = await post().expect(401);
    expect(anonymous.headers['www-authenticate']).toContain('Bearer');
    expect((await post(TOKENS.viewer).expect(403)).body.detail).toBe(
      'this route requires the "operator" role; token:viewer has role "viewer"',
    );
    expect((await post(TOKENS.operator).expect(201)).body).toEqual({ name: 'Faro', body: { pop: 60000 } });
    await request(gw.url).get('/plugins/weather/nowhere').expect(404);
    // A plugin id that is not valid percent-encoding is no plugin, not a server error.
    expect((await request(gw.url).get('/plugins/%E0/x').expect(404)).body.detail).toBe('no plugin serves /plugins/%E0/x');
    const wrongMethod = await request(gw.url).delete('/plugins/weather/status').expect(405);
    expect(wrongMethod.headers.allow).toBe('GET');
  });

  it('services start once; the state dir is private (0700)', async () => {
    expect(seen.serviceStarts).toBe(1);
    expect(seen.stateDir).toBe(path.join(gw.stateDir, 'plugins', 'weather'));
    expect((await fs.stat(seen.stateDir)).mode & 0o777).toBe(0o700);
  });

  it('stopping the gateway stops the services', async () => {
    const other = await startTestGateway('{}', { plugins: [weather] });
    const starts = seen.serviceStarts;
    const stops = seen.serviceStops;
    await other.stop();
    expect(seen.serviceStarts).toBe(starts);
    expect(seen.serviceStops).toBe(stops + 1);
  });
});
