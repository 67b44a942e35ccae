import * as path from 'node:path';
import request from 'supertest';
import { API_CLIENT } from '../support/admin-client';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { writePluginDir } from '../support/plugin-dirs';
import { eventsAsJson, postForSse } from '../support/sse-client';

/**
 * A plugin's model API (docs/plugins.md#providers): a plugin directory made here registers a provider with
 * `api.registerProvider`; agents use it as the model reference `<id>/<model>` and reply through the http channel,
 * streamed; a provider that throws sends the run on to its fallback model.
 */
const DESK = 'plugin-provider-desk-token-0123';
const SHAKY = 'plugin-provider-shaky-token-4567';

const PROVIDER_CODE = `
module.exports = {
  register(api) {
    api.registerProvider({
      id: 'parrot',
      async chat(request, ctx) {
        const last = [...request.messages].reverse().find((m) => m.role === 'user');
        const pieces = ['from-plugin: ', last.text];
        for (const piece of pieces) ctx.onTextDelta(piece);
        return { text: pieces.join('') };
      },
    });
    api.registerProvider({
      id: 'broken-model',
      chat() {
        throw new Error('the model is down');
      },
    });
  },
};
`;

/** Declares one provider and registers another: refused at the call, so the plugin fails. */
const UNDECLARED_CODE = `module.exports = { register(api) { api.registerProvider({ id: 'sneaky', chat: () => ({ text: 'x' }) }); } };\n`;
/** Takes a built-in provider's name. */
const SQUATTER_CODE = `module.exports = { register(api) { api.registerProvider({ id: 'openai', chat: () => ({ text: 'x' }) }); } };\n`;

const config = `{
  models: { providers: { echo: { streamDelayMs: 0 } } },
  agents: { list: [
    { id: "main", default: true, model: "parrot/v1" },
    { id: "shaky", model: { primary: "broken-model/v1", fallbacks: ["echo/ok"] } },
  ] },
  bindings: [{ agentId: "shaky", match: { channel: "http", accountId: "shaky" } }],
  channels: { http: { enabled: true, accounts: { desk: { token: "${DESK}" }, shaky: { token: "${SHAKY}" } } } },
  plugins: { load: { paths: ["./plugins"] } },
}`;

describe('plugin model providers (e2e)', () => {
  let gw: TestGateway;
  const url = () => `${gw.url}/channels/http/messages`;
  const auth = { Authorization: `Bearer ${DESK}` };

  beforeAll(async () => {
    gw = await startTestGateway(config, {
      beforeStart: async (stateDir) => {
        const plugins = path.join(path.dirname(stateDir), 'plugins');
        await writePluginDir(path.join(plugins, 'parrot'), {
          manifest: { id: 'parrot', configSchema: { type: 'object' }, contracts: { providers: ['parrot', 'broken-model'] } },
          files: { 'index.js': PROVIDER_CODE },
        });
        await writePluginDir(path.join(plugins, 'undeclared'), {
          manifest: { id: 'undeclared', configSchema: { type: 'object' }, contracts: { providers: ['declared-one'] } },
          files: { 'index.js': UNDECLARED_CODE },
        });
        await writePluginDir(path.join(plugins, 'squatter'), {
          manifest: { id: 'squatter', configSchema: { type: 'object' }, contracts: { providers: ['openai'] } },
          files: { 'index.js': SQUATTER_CODE },
        });
      },
    });
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it("an agent on <plugin provider>/<model> replies through the http channel, streamed in the provider's 2 deltas", async () => {
    const answer = await postForSse(url(), { peer: { kind: 'direct', id: 'alice' }, text: 'hello parrot', stream: true }, auth);
    expect(answer.status).toBe(200);
    const events = eventsAsJson(answer.events);
    expect(events[0][0]).toBe('run');
    expect(events.slice(1, -1)).toEqual([
      ['delta', { round: 0, text: 'from-plugin: ' }],
      ['delta', { round: 0, text: 'hello parrot' }],
    ]);
    expect(events.at(-1)).toEqual([
      'done',
      expect.objectContaining({ agentId: 'main', status: 'completed', reply: 'from-plugin: hello parrot' }),
    ]);
    const plugin = (await request(gw.url).get('/admin/plugins/parrot').set(API_CLIENT).expect(200)).body;
    expect(plugin.status).toBe('active');
    expect(plugin.declared.providers).toEqual(['parrot', 'broken-model']);
  });

  it('a plugin provider that throws fails over to the next model of the chain (echo)', async () => {
    const answer = await postForSse(
      url(),
      { peer: { kind: 'direct', id: 'shaky-user' }, text: 'still there?', stream: true },
      {
        Authorization: `Bearer ${SHAKY}`,
      },
    );
    expect(answer.status).toBe(200);
    const events = eventsAsJson(answer.events);
    expect(events.at(-1)).toEqual([
      'done',
      expect.objectContaining({ agentId: 'shaky', status: 'completed', reply: '[shaky] still there?' }),
    ]);
  });

  it("refuses a provider the manifest does not declare, and one that takes a built-in provider's name", async () => {
    const undeclared = (await request(gw.url).get('/admin/plugins/undeclared').set(API_CLIENT).expect(200)).body;
    expect(undeclared.status).toBe('failed');
    expect(undeclared.errors[0]).toContain('registerProvider: provider "sneaky" is not declared in the manifest\'s contracts.providers');
    const squatter = (await request(gw.url).get('/admin/plugins/squatter').set(API_CLIENT).expect(200)).body;
    expect(squatter.status).toBe('failed');
    expect(squatter.errors[0]).toContain('registerProvider: provider "openai" is a built-in model provider or api kind of the gateway');
    // The gateway keeps serving: the healthy plugin's provider still answers.
    const answer = await postForSse(url(), { peer: { kind: 'direct', id: 'bob' }, text: 'again', stream: true }, auth);
    expect(eventsAsJson(answer.events).at(-1)).toEqual(['done', expect.objectContaining({ reply: 'from-plugin: again' })]);
  });
});
