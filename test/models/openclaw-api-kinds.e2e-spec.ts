import request from 'supertest';
import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import type { RunRecord } from '../../src/modules/runtime/run-registry';
import { SessionToolsService } from '../../src/modules/session-tools/session-tools.service';
import { API_CLIENT } from '../support/admin-client';
import { FakeAnthropicServer } from '../support/fake-anthropic-server';
import { FakeOpenAiResponsesServer } from '../support/fake-openai-responses-server';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * OpenClaw's `models.providers.<id>.api` kinds that clawgate speaks, each written as OpenClaw's docs and the corpus
 * write them, answering from a real (fake) server of that API: `openai-completions` (and no `api` with a baseUrl),
 * `ollama` (OpenClaw's baseUrl has no /v1: clawgate calls its OpenAI-compatible endpoint under /v1),
 * `anthropic-messages` on a provider of its own (MiniMax's Anthropic endpoint, with headers), and a model whose own
 * `api` differs from its provider's, and `openai-responses` (the Responses API at <baseUrl>/responses). A kind it does not
 * speak (`openai-codex-responses`, ChatGPT sign-in) names itself and the run falls back;
 * so does a provider whose `${VAR}` baseUrl is no URL (named by its variable, never its value).
 */
const config = (openai: FakeOpenAiServer, anthropic: FakeAnthropicServer, responses: FakeOpenAiResponsesServer) => `{
  models: { mode: "merge", providers: {
    compat: { api: "openai-completions", baseUrl: "${openai.baseUrl}", apiKey: "sk-compat",
              models: [{ id: "m1", name: "M1", contextWindow: 128000, maxTokens: 8192, cost: { input: 1, output: 2 } }] },
    plain: { baseUrl: "${openai.baseUrl}", apiKey: "sk-plain" },
    local: { api: "ollama", baseUrl: "${openai.origin}", apiKey: "ollama-local", models: [{ id: "llama3.2" }] },
    minimax: { api: "anthropic-messages", baseUrl: "${anthropic.baseUrl}", apiKey: "mm-key", headers: { "X-Org": "o1" },
               models: [{ id: "MiniMax-M2", contextWindow: 200000, maxTokens: 8192 }] },
    mixed: { api: "openai-completions", baseUrl: "${anthropic.baseUrl}", apiKey: "mixed-key",
             models: [{ id: "claude-x", api: "anthropic-messages" }] },
    codex: { api: "openai-codex-responses", baseUrl: "${openai.baseUrl}", apiKey: "sk-codex" },
    lmstudio: { api: "openai-responses", baseUrl: "${responses.baseUrl}", apiKey: "lm-key" },
    openai: { baseUrl: "\${IMAGE_API_URL}", apiKey: "sk-image" },
  } },
  agents: { list: [
    { id: "compat", model: "compat/m1" },
    { id: "plain", model: "plain/gpt-4o-mini" },
    { id: "local", model: "local/llama3.2" },
    { id: "minimax", model: { primary: "minimax/MiniMax-M2", fallbacks: [] } },
    { id: "mixed", model: "mixed/claude-x" },
    { id: "responses", model: { primary: "codex/gpt-5.2", fallbacks: ["compat/m1"] } },
    { id: "images", model: { primary: "openai/gpt-image-1", fallbacks: ["compat/m1"] } },
    { id: "lm", model: { primary: "lmstudio/local", fallbacks: [] } },
  ] },
}`;

describe('OpenClaw api kinds clawgate speaks (e2e, fake OpenAI and Anthropic servers)', () => {
  let gw: TestGateway;
  let openai: FakeOpenAiServer;
  let anthropic: FakeAnthropicServer;
  let responses: FakeOpenAiResponsesServer;
  let tools: SessionToolsService;
  let runner: AgentRunner;

  beforeAll(async () => {
    openai = await new FakeOpenAiServer().start();
    openai.always((req) => openai.text(`openai answered ${req.body.model}`)(req));
    anthropic = await new FakeAnthropicServer().start();
    anthropic.always((req) => anthropic.text(`anthropic answered ${req.body.model}`)(req));
    responses = await new FakeOpenAiResponsesServer({ apiKey: 'lm-key' }).start();
    responses.always((req) => responses.text(`responses answered ${req.body.model}`)(req));
    // A deploy template's variable that holds no URL (a host name): the provider loads unusable, the gateway starts.
    gw = await startTestGateway(config(openai, anthropic, responses), { env: { IMAGE_API_URL: 'images-backend.internal' } });
    tools = gw.app.get(SessionToolsService);
    runner = gw.app.get(AgentRunner);
  });
  afterAll(async () => {
    await gw?.stop();
    await Promise.all([openai?.close(), anthropic?.close(), responses?.close()]);
  });
  beforeEach(() => {
    openai.requests.length = 0;
    anthropic.requests.length = 0;
    responses.requests.length = 0;
  });

  async function run(agentId: string): Promise<RunRecord> {
    const spawned = await tools.spawn({ sessionKey: `agent:${agentId}:main` }, { task: `hello ${agentId}` });
    expect(spawned.status).toBe('accepted');
    return runner.waitForRun(spawned.runId as string, 15_000);
  }

  it.each([
    { agent: 'compat', model: 'compat/m1', sent: 'm1', bearer: 'sk-compat' },
    { agent: 'plain', model: 'plain/gpt-4o-mini', sent: 'gpt-4o-mini', bearer: 'sk-plain' },
    { agent: 'local', model: 'local/llama3.2', sent: 'llama3.2', bearer: 'ollama-local' },
  ])('$model: OpenAI chat completions at <baseUrl>/chat/completions', async ({ agent, model, sent, bearer }) => {
    expect(await run(agent)).toMatchObject({ status: 'completed', reply: `openai answered ${sent}`, model });
    expect(openai.requests.map((r) => [r.path, r.headers.authorization, r.body.model])).toEqual([
      ['/v1/chat/completions', `Bearer ${bearer}`, sent],
    ]);
    expect(anthropic.requests).toHaveLength(0);
  });

  it('anthropic-messages on a provider of its own: /v1/messages with x-api-key, anthropic-version and its headers', async () => {
    expect(await run('minimax')).toMatchObject({
      status: 'completed',
      reply: 'anthropic answered MiniMax-M2',
      model: 'minimax/MiniMax-M2',
    });
    expect(anthropic.requests).toHaveLength(1);
    const [req] = anthropic.requests;
    expect([req.path, req.headers['x-api-key'], req.headers['x-org'], req.body.model]).toEqual([
      '/v1/messages',
      'mm-key',
      'o1',
      'MiniMax-M2',
    ]);
    expect(req.headers['anthropic-version']).toBeTruthy();
    expect(req.headers.authorization).toBeUndefined();
    expect(openai.requests).toHaveLength(0);
  });

  it("a model's own api wins over its provider's", async () => {
    expect(await run('mixed')).toMatchObject({ status: 'completed', reply: 'anthropic answered claude-x', model: 'mixed/claude-x' });
    expect(anthropic.requests.map((r) => [r.path, r.headers['x-api-key']])).toEqual([['/v1/messages', 'mixed-key']]);
  });

  it('lmstudio/local: the Responses API at <baseUrl>/responses with the key', async () => {
    expect(await run('lm')).toMatchObject({ status: 'completed', reply: 'responses answered local', model: 'lmstudio/local' });
    expect(responses.requests.map((r) => [r.path, r.headers.authorization, r.body.model, r.body.store])).toEqual([
      ['/v1/responses', 'Bearer lm-key', 'local', false],
    ]);
    expect(responses.violations).toEqual([]);
  });

  it('openai-codex-responses, which clawgate does not speak, names itself and the run goes on to the fallback', async () => {
    const record = await run('responses');
    expect(record).toMatchObject({ status: 'completed', reply: 'openai answered m1', model: 'compat/m1' });
    expect(record.failovers).toEqual([
      {
        model: 'codex/gpt-5.2',
        error:
          'model provider codex uses api "openai-codex-responses", which clawgate does not speak (models.providers.codex.api: openai-chat, openai-completions, ollama, openai-responses, anthropic-messages)',
      },
    ]);
    expect(openai.requests.map((r) => r.body.model)).toEqual(['m1']);
  });

  it('a ${VAR} baseUrl that is no URL: the provider loads unusable, named by the variable, and the run falls back', async () => {
    const status = (await request(gw.url).get('/admin/config/status').set(API_CLIENT).expect(200)).body as { warnings: unknown[] };
    const text = JSON.stringify(status);
    expect(text).toContain('models.providers.openai.baseUrl');
    expect(text).toContain('the value of ${IMAGE_API_URL} is not an http(s) URL');
    expect(text).not.toContain('images-backend.internal');

    const record = await run('images');
    expect(record).toMatchObject({ status: 'completed', reply: 'openai answered m1', model: 'compat/m1' });
    expect(record.failovers).toEqual([
      {
        model: 'openai/gpt-image-1',
        error:
          'model provider openai cannot be called: its baseUrl, the value of ${IMAGE_API_URL}, is not an http(s) URL (models.providers.openai.baseUrl)',
      },
    ]);
    // Not the built-in provider's URL either: only the fallback's request reached a server.
    expect(openai.requests.map((r) => [r.body.model, r.headers.authorization])).toEqual([['m1', 'Bearer sk-compat']]);
  });
});
