import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { ToolRegistry } from '../../src/modules/runtime';
import { a2aRpc } from '../support/a2a-rpc';
import { API_CLIENT } from '../support/admin-client';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { writePluginDir } from '../support/plugin-dirs';

/**
 * Plugins found on disk (docs/plugins.md): directories made here (manifest + one JS file) named in
 * `plugins.load.paths`, loaded by the running gateway, and followed as openclaw.json is edited: re-configured,
 * disabled, enabled again with new code. Throughout, the gateway keeps answering A2A and admin requests.
 */

const PEER_TOKEN = 'plugins-files-peer-token-0001';

const FORECAST_MANIFEST = {
  id: 'forecast',
  name: 'Forecasts',
  version: '2.0.0',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { units: { enum: ['metric', 'imperial'] }, apiToken: { type: 'string' } },
  },
  contracts: { tools: ['forecast'] },
};

/** Its code: a tool whose answer shows the config it read, a route that shows it too, a service that leaves marks. */
const forecastCode = (version: string) => `
const fs = require('node:fs');
const path = require('node:path');
let units = 'unset';
module.exports = {
  register(api) {
    units = api.config().units;
    api.onConfigChange((config) => { units = config.units; });
    api.registerTool({
      name: 'forecast',
      description: 'The forecast of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: ({ city }) => '${version}: 21 degrees in ' + city + ' (' + units + ')',
    });
    api.registerHttpRoute({ method: 'GET', path: '/units', auth: 'public', handle: () => ({ body: { units, version: '${version}' } }) });
    api.registerService({
      id: 'marks',
      start: () => fs.writeFileSync(path.join(api.stateDir, 'started-${version}'), ''),
      stop: () => fs.writeFileSync(path.join(api.stateDir, 'stopped-${version}'), ''),
    });
  },
};
`;

function configText(model: string, entries: string): string {
  return `{
  gateway: { reload: { mode: "off" } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${model}" } } },
  agents: { list: [{ id: "main", model: "fake/gpt-test" }] },
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${PEER_TOKEN}" } } } },
  plugins: { load: { paths: ["./plugins"] }, entries: { ${entries} } },
}`;
}

describe('plugins from plugins.load.paths on a running gateway (e2e)', () => {
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  let forecastDir: string;

  const apply = async (entries: string) => {
    await gw.writeConfig(configText(model.baseUrl, entries));
    const res = await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(200);
    expect(res.body.status).toBe('applied');
  };
  const plugin = async (id: string) => (await request(gw.url).get(`/admin/plugins/${id}`).expect(200)).body;
  const send = async (text: string): Promise<string> => {
    const answer = await a2aRpc(gw.url, PEER_TOKEN, 'SendMessage', {
      message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] },
    });
    expect(answer.error).toBeUndefined();
    return answer.result.task.artifacts[0].parts[0].text;
  };
  const expectServing = async () => {
    expect((await a2aRpc(gw.url, PEER_TOKEN, 'ListTasks', {})).error).toBeUndefined();
    await request(gw.url).get('/admin/config/status').expect(200);
  };
  const marks = () => fs.readdir(path.join(gw.stateDir, 'plugins', 'forecast')).then((names) => names.sort());

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    gw = await startTestGateway(
      configText(model.baseUrl, 'forecast: { config: { units: "metric", apiToken: "forecast-token-secret-42" } }'),
      {
        beforeStart: async (stateDir) => {
          const plugins = path.join(path.dirname(stateDir), 'plugins');
          forecastDir = await writePluginDir(path.join(plugins, 'forecast'), {
            manifest: FORECAST_MANIFEST,
            files: { 'index.js': forecastCode('v1') },
          });
          await writePluginDir(path.join(plugins, 'thrower'), {
            manifest: { id: 'thrower', configSchema: { type: 'object' } },
            files: { 'index.js': 'module.exports = { register() { throw new Error("cannot start: no credentials"); } };\n' },
          });
          // Registers a tool its manifest does not declare: refused at the call, so the plugin fails.
          await writePluginDir(path.join(plugins, 'undeclared'), {
            manifest: { id: 'undeclared', configSchema: { type: 'object' }, contracts: { tools: ['declared_one'] } },
            files: {
              'index.js':
                'module.exports = { register(api) { api.registerTool({ name: "sneaky", description: "", parameters: { type: "object" }, execute: () => 1 }); } };\n',
            },
          });
        },
      },
    );
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
  });
  beforeEach(() => model.reset());

  it('an agent calls the plugin tool through the scripted model; the result reaches the reply; the plugin is active', async () => {
    model.script(
      model.toolCall('forecast', { city: 'Lisbon' }),
      model.textFromToolResult((result) => `Forecast: ${JSON.parse(result).result}`),
    );
    expect(await send('weather?')).toBe('Forecast: v1: 21 degrees in Lisbon (metric)');
    expect(model.violations).toEqual([]);

    const forecast = await plugin('forecast');
    expect(forecast).toMatchObject({
      id: 'forecast',
      source: 'load-path',
      name: 'Forecasts',
      version: '2.0.0',
      root: forecastDir,
      status: 'active',
      errors: [],
      declared: { tools: ['forecast'], providers: [], channels: [] },
      registered: { tools: ['forecast'], routes: ['GET /plugins/forecast/units'], services: ['marks'], hooks: [] },
      config: { units: 'metric', apiToken: '[redacted]' },
    });
    expect(await marks()).toEqual(['started-v1']);
  });

  it('a plugin that throws in register, or registers what it did not declare, is failed with its error; the rest serves', async () => {
    expect(await plugin('thrower')).toMatchObject({ status: 'failed', errors: ['register(api) threw: cannot start: no credentials'] });
    expect(await plugin('undeclared')).toMatchObject({
      status: 'failed',
      errors: ['register(api) threw: registerTool: tool "sneaky" is not declared in the manifest\'s contracts.tools'],
    });
    expect(gw.app.get(ToolRegistry).has('sneaky')).toBe(false);
    await expectServing();
  });

  it('re-configured by editing openclaw.json: the plugin hears its new config, without a reload of its code', async () => {
    await apply('forecast: { config: { units: "imperial" } }');
    expect((await request(gw.url).get('/plugins/forecast/units').expect(200)).body).toEqual({ units: 'imperial', version: 'v1' });
    expect((await plugin('forecast')).config).toEqual({ units: 'imperial' });
    expect(await marks()).toEqual(['started-v1']);
    await expectServing();
  });

  it('disabled by editing openclaw.json: unloaded (route, tool, service gone); enabled again: its new code runs', async () => {
    await apply('forecast: { enabled: false, config: { units: "imperial" } }');
    expect(await plugin('forecast')).toMatchObject({ status: 'disabled', reason: 'plugins.entries.forecast.enabled is false' });
    await request(gw.url).get('/plugins/forecast/units').expect(404);
    expect(gw.app.get(ToolRegistry).has('forecast')).toBe(false);
    expect(await marks()).toEqual(['started-v1', 'stopped-v1']);
    await expectServing();

    await fs.writeFile(path.join(forecastDir, 'index.js'), forecastCode('v2'));
    await apply('forecast: { config: { units: "metric" } }');
    expect(await plugin('forecast')).toMatchObject({ status: 'active', errors: [] });
    expect((await request(gw.url).get('/plugins/forecast/units').expect(200)).body).toEqual({ units: 'metric', version: 'v2' });
    model.script(
      model.toolCall('forecast', { city: 'Porto' }),
      model.textFromToolResult((result) => JSON.parse(result).result),
    );
    expect(await send('and now?')).toBe('v2: 21 degrees in Porto (metric)');
    expect(existsSync(path.join(gw.stateDir, 'plugins', 'forecast', 'started-v2'))).toBe(true);
  });

  it('the admin list shows every plugin found, with its status', async () => {
    const { body } = await request(gw.url).get('/admin/plugins').expect(200);
    expect(body.plugins.map((p: { id: string; status: string }) => [p.id, p.status])).toEqual([
      ['forecast', 'active'],
      ['thrower', 'failed'],
      ['undeclared', 'failed'],
      // Bundled, activated by its channel: disabled while channels.telegram is not configured.
      ['telegram', 'disabled'],
      ['discord', 'disabled'],
      ['slack', 'disabled'],
      // Bundled, active at start (the http channel).
      ['http', 'active'],
      // Bundled, active at start (the OpenAI-compatible endpoint).
      ['openai-endpoint', 'active'],
      // Bundled, active at start (the A2A channel).
      ['a2a', 'active'],
    ]);
  });
});
