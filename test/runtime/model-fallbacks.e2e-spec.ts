import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import type { RunRecord } from '../../src/modules/runtime/run-registry';
import { SessionToolsService } from '../../src/modules/session-tools/session-tools.service';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/** OpenClaw's model form: the primary on a real (fake) OpenAI-compatible server, the offline echo model behind it. */
const config = (down: string) => `{
  models: { providers: {
    down: { api: "openai-completions", baseUrl: "${down}", timeoutMs: 1000 },
    gemini: { api: "google-generative-ai", baseUrl: "https://generativelanguage.googleapis.com/v1beta" },
  } },
  agents: {
    defaults: { model: { primary: "down/x", fallbacks: ["echo/ok"] } },
    list: [
      { id: "main" },
      { id: "strict", model: { primary: "down/x", fallbacks: [] } },
      { id: "gem", model: { primary: "gemini/gemini-2.5-pro", fallbacks: ["echo/ok"] } },
      { id: "gemonly", model: { primary: "gemini/gemini-2.5-pro", fallbacks: [] } },
    ],
  },
}`;

describe('model fallbacks (e2e, a fake OpenAI server as the primary)', () => {
  let gw: TestGateway;
  let down: FakeOpenAiServer;
  let tools: SessionToolsService;
  let runner: AgentRunner;

  beforeAll(async () => {
    down = await new FakeOpenAiServer().start();
    gw = await startTestGateway(config(down.baseUrl));
    tools = gw.app.get(SessionToolsService);
    runner = gw.app.get(AgentRunner);
  });
  afterAll(async () => {
    await gw?.stop();
    await down?.close();
  });

  async function run(agentId: string, task: string): Promise<RunRecord> {
    const spawned = await tools.spawn({ sessionKey: `agent:${agentId}:main` }, { task });
    expect(spawned.status).toBe('accepted');
    return runner.waitForRun(spawned.runId as string, 15_000);
  }

  it('answers from the fallback when the primary returns 500, then 429, then refuses the connection; the run names the model', async () => {
    down.script(down.error(500, 'The server had an error while processing your request.'));
    const first = await run('main', 'one');
    expect(first).toMatchObject({ status: 'completed', reply: '[main] one', model: 'echo/ok' });
    expect(first.failovers).toEqual([
      { model: 'down/x', error: 'model provider down returned HTTP 500: The server had an error while processing your request.' },
    ]);

    down.script(down.error(429, 'Rate limit reached for requests'));
    const second = await run('main', 'two');
    expect(second).toMatchObject({ status: 'completed', reply: '[main] two', model: 'echo/ok' });
    expect(second.failovers).toEqual([
      { model: 'down/x', error: 'model provider down returned HTTP 429: Rate limit reached for requests' },
    ]);
    expect(down.requests).toHaveLength(2);

    const url = down.baseUrl;
    await down.close();
    const third = await run('main', 'three');
    expect(third).toMatchObject({ status: 'completed', reply: '[main] three', model: 'echo/ok' });
    expect(third.failovers).toEqual([
      {
        model: 'down/x',
        error: `model provider down is unreachable at ${url}/chat/completions (ECONNREFUSED): check models.providers.down.baseUrl`,
      },
    ]);
    // The tests below find the primary's port closed; afterAll closes this unused stand-in.
    down = await new FakeOpenAiServer().start();
  });

  it("without fallbacks the run fails with the primary's error", async () => {
    const refused = await run('strict', 'alone');
    expect(refused.status).toBe('failed');
    expect(refused.error).toMatch(/^model provider down is unreachable at /);
    expect(refused.failovers).toEqual([{ model: 'down/x', error: refused.error }]);
  });

  it('an OpenClaw api kind clawgate does not speak falls back; with no fallback the run fails naming it', async () => {
    const fell = await run('gem', 'hello');
    expect(fell).toMatchObject({ status: 'completed', reply: '[gem] hello', model: 'echo/ok' });
    expect(fell.failovers?.[0]).toMatchObject({ model: 'gemini/gemini-2.5-pro' });

    const failed = await run('gemonly', 'hello');
    expect(failed).toMatchObject({
      status: 'failed',
      error:
        'model provider gemini uses api "google-generative-ai", which clawgate does not speak (models.providers.gemini.api: openai-chat, openai-completions, ollama, openai-responses, anthropic-messages)',
    });
  });
});
