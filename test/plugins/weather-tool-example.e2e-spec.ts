import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { a2aRpc } from '../support/a2a-rpc';
import { API_CLIENT } from '../support/admin-client';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * The example plugin `examples/plugins/weather-tool` as an operator uses it: its directory (copied with the modes
 * of a checkout under umask 022, so the trust check does not depend on the runner's umask) named in
 * `plugins.load.paths`, its config in `plugins.entries`, a real gateway, and a scripted OpenAI-compatible model
 * that calls its tool. The example's own test (examples/plugins/weather-tool/README.md).
 */

const EXAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'plugins', 'weather-tool');
const PEER_TOKEN = 'weather-example-peer-token-0001';

function configText(modelUrl: string, pluginConfig: string): string {
  return `{
  gateway: { reload: { mode: "off" } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${modelUrl}" } } },
  agents: { list: [{ id: "main", model: "fake/gpt-test", tools: { allow: ["get_weather", "session_status"] } }] },
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${PEER_TOKEN}" } } } },
  plugins: {
    load: { paths: ["./plugins/weather-tool"] },
    entries: { "weather-tool": { config: ${pluginConfig} } },
  },
}`;
}

/** Copies the example plugin: directories 0755, files 0644. */
async function copyExample(to: string): Promise<void> {
  await fs.mkdir(to, { recursive: true });
  for (const name of await fs.readdir(EXAMPLE)) {
    await fs.copyFile(path.join(EXAMPLE, name), path.join(to, name));
    await fs.chmod(path.join(to, name), 0o644);
  }
  await fs.chmod(to, 0o755);
}

describe('examples/plugins/weather-tool (e2e)', () => {
  let model: FakeOpenAiServer;
  let gw: TestGateway;

  const ask = async (text: string): Promise<string> => {
    const answer = await a2aRpc(gw.url, PEER_TOKEN, 'SendMessage', {
      message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] },
    });
    expect(answer.error).toBeUndefined();
    return answer.result.task.artifacts[0].parts[0].text as string;
  };
  const reload = async (pluginConfig: string, status = 200) => {
    await gw.writeConfig(configText(model.baseUrl, pluginConfig));
    return (await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(status)).body;
  };

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    gw = await startTestGateway(configText(model.baseUrl, '{ units: "imperial" }'), {
      beforeStart: (stateDir) => copyExample(path.join(path.dirname(stateDir), 'plugins', 'weather-tool')),
    });
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
  });
  beforeEach(() => model.reset());

  it('loads as active, and the model calls get_weather: the forecast reaches the reply in the configured units', async () => {
    const status = (await request(gw.url).get('/admin/plugins/weather-tool').set(API_CLIENT).expect(200)).body;
    expect(status).toMatchObject({ id: 'weather-tool', status: 'active', version: '1.0.0', registered: { tools: ['get_weather'] } });
    // The agent's allow list names the plugin's tool: no "not provided" warning for it.
    const config = (await request(gw.url).get('/admin/config/status').set(API_CLIENT).expect(200)).body;
    expect(JSON.stringify(config.warnings)).not.toContain('get_weather');

    model.script(
      model.toolCall('get_weather', { city: 'Lisbon' }),
      model.textFromToolResult((result) => `Forecast: ${result}`),
    );
    const reply = await ask('What is the weather in Lisbon?');
    expect(model.violations).toEqual([]);
    expect(model.requests[0].body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('get_weather');
    expect(JSON.parse(reply.replace('Forecast: ', ''))).toEqual({
      status: 'ok',
      result: { city: 'Lisbon', temperature: '59°F', sky: 'cloudy' },
    });
  });

  it('takes a config change at the next call, and refuses a wrong one with its dotted path, keeping the last good', async () => {
    expect((await reload('{ units: "metric", defaultCity: "Porto" }')).status).toBe('applied');
    model.script(
      model.toolCall('get_weather', {}),
      model.textFromToolResult((result) => result),
    );
    expect(JSON.parse(await ask('And here?')).result).toMatchObject({ city: 'Porto', temperature: expect.stringMatching(/°C$/) });

    const refused = await reload('{ units: "kelvin" }', 422);
    expect(JSON.stringify(refused)).toContain('plugins.entries.weather-tool.config.units');
    expect(refused.errors).toContainEqual(
      expect.objectContaining({
        path: 'plugins.entries.weather-tool.config.units',
        message: expect.stringContaining('must be one of: "metric", "imperial"'),
      }),
    );
    model.script(
      model.toolCall('get_weather', { city: 'Lisbon' }),
      model.textFromToolResult((result) => result),
    );
    expect(JSON.parse(await ask('Lisbon again?')).result).toEqual({ city: 'Lisbon', temperature: '15°C', sky: 'cloudy' });
  });
});
