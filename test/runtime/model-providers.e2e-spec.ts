import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import type { RunRecord } from '../../src/modules/runtime/run-registry';
import { SessionToolsService } from '../../src/modules/session-tools/session-tools.service';
import { SESSION_STORE, SessionStore, TranscriptLine } from '../../src/modules/sessions/session-store.port';
import { FakeAnthropicServer } from '../support/fake-anthropic-server';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

const OPENAI_KEY = 'sk-e2e-openai-key-123456';
const ANTHROPIC_KEY = 'sk-ant-e2e-key-654321';

/** Agents on real HTTP providers (fake servers), keys from `${VAR}` resolved against the harness env. */
const config = (openai: string, anthropic: string, dead: string) => `{
  models: { providers: {
    "local-openai": { api: "openai-chat", baseUrl: "${openai}", apiKey: "\${E2E_OPENAI_KEY}" },
    anthropic: { baseUrl: "${anthropic}", apiKey: "\${E2E_ANTHROPIC_KEY}", timeoutMs: 5000 },
    dead: { api: "openai-chat", baseUrl: "${dead}" },
  } },
  agents: { list: [
    { id: "main" },
    { id: "gpt", model: "local-openai/gpt-test" },
    { id: "claude", model: "anthropic/claude-test" },
    { id: "broken", model: "dead/whatever" },
  ] },
}`;

describe('HTTP model providers in a real gateway (e2e, fake OpenAI and Anthropic servers)', () => {
  let gw: TestGateway;
  let openai: FakeOpenAiServer;
  let anthropic: FakeAnthropicServer;
  let tools: SessionToolsService;
  let store: SessionStore;
  let runner: AgentRunner;
  let deadUrl: string;

  beforeAll(async () => {
    openai = await new FakeOpenAiServer({ apiKey: OPENAI_KEY }).start();
    anthropic = await new FakeAnthropicServer({ apiKey: ANTHROPIC_KEY }).start();
    // A port that was just free and is now closed: connection refused, quickly and deterministically.
    const gone = await new FakeOpenAiServer().start();
    deadUrl = gone.baseUrl;
    await gone.close();
    gw = await startTestGateway(config(openai.baseUrl, anthropic.baseUrl, deadUrl), {
      env: { E2E_OPENAI_KEY: OPENAI_KEY, E2E_ANTHROPIC_KEY: ANTHROPIC_KEY },
    });
    tools = gw.app.get(SessionToolsService);
    store = gw.app.get(SESSION_STORE);
    runner = gw.app.get(AgentRunner);
  });
  afterAll(async () => {
    await gw?.stop();
    await Promise.all([openai?.close(), anthropic?.close()]);
  });
  beforeEach(() => {
    openai.reset();
    anthropic.reset();
  });

  /** Spawns a sub-session of `agentId` with `task` and waits for its run to end. */
  async function spawnAndWait(agentId: string, task: string): Promise<{ run: RunRecord; lines: TranscriptLine[] }> {
    const spawned = await tools.spawn({ sessionKey: `agent:${agentId}:main` }, { task });
    expect(spawned.status).toBe('accepted');
    const run = await runner.waitForRun(spawned.runId as string, 10_000);
    const { lines } = await store.history(spawned.childSessionKey as string);
    return { run, lines };
  }

  it('openai-chat: the model calls session_status, gets the result, then answers', async () => {
    openai.script(openai.toolCall('session_status', {}), openai.textAfterToolResult('This session is busy answering you.'));
    const { run, lines } = await spawnAndWait('gpt', 'how are you doing?');

    expect(openai.violations).toEqual([]);
    expect(run).toMatchObject({
      status: 'completed',
      reply: 'This session is busy answering you.',
      toolRounds: 1,
      usage: { inputTokens: 22, outputTokens: 14 },
    });
    expect(lines.map((l) => l.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(lines[1].toolCalls).toEqual([{ id: 'call_1', name: 'session_status', arguments: {} }]);
    expect(lines[2].meta).toMatchObject({ toolCallId: 'call_1', name: 'session_status' });
    expect(lines[3].text).toBe('This session is busy answering you.');

    // Both calls carried the resolved key, the model name, the system prompt and the agent's tools.
    expect(openai.requests).toHaveLength(2);
    for (const r of openai.requests) {
      expect(r.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
      expect(r.body.model).toBe('gpt-test');
      expect(r.body.messages[0].role).toBe('system');
      expect(r.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('session_status');
    }
    // The second request carried the real tool result: the session, seen from inside its own running run.
    const result = JSON.parse(openai.lastToolResult() as string);
    expect(result).toMatchObject({ status: 'ok', run: { state: 'running', running: 1 } });
  });

  it('anthropic-messages: the same round trip through tool_use / tool_result', async () => {
    anthropic.script(anthropic.toolUse('session_status', {}, 'Checking.'), anthropic.textAfterToolResult('All good here.'));
    const { run, lines } = await spawnAndWait('claude', 'status please');

    expect(anthropic.violations).toEqual([]);
    expect(run).toMatchObject({
      status: 'completed',
      reply: 'All good here.',
      toolRounds: 1,
      usage: { inputTokens: 42, outputTokens: 10 },
    });
    expect(lines.map((l) => [l.role, l.text.slice(0, 9)])).toEqual([
      ['user', 'status pl'],
      ['assistant', 'Checking.'],
      ['tool', '{"status"'],
      ['assistant', 'All good '],
    ]);
    expect(lines[1].toolCalls).toEqual([{ id: 'toolu_1', name: 'session_status', arguments: {} }]);

    const second = anthropic.requests[1];
    expect(second.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(second.body).toMatchObject({ model: 'claude-test', max_tokens: 4096, system: expect.any(String) });
    const toolTurn = second.body.messages.at(-1);
    expect(toolTurn.role).toBe('user');
    expect(toolTurn.content).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_1', content: expect.stringContaining('"status":"ok"') }]);
  });

  it("a provider's HTTP error fails the run with the provider's message, without leaking the key", async () => {
    openai.script(openai.error(500, 'The server had an error while processing your request.'));
    const { run, lines } = await spawnAndWait('gpt', 'hello');
    expect(run.status).toBe('failed');
    expect(run.error).toBe('model provider local-openai returned HTTP 500: The server had an error while processing your request.');
    expect(lines.at(-1)).toMatchObject({ role: 'system', text: expect.stringContaining('HTTP 500') });
    expect(JSON.stringify(lines)).not.toContain(OPENAI_KEY);
  });

  it('an unreachable provider fails the run with a message naming baseUrl; the gateway stays up', async () => {
    const { run } = await spawnAndWait('broken', 'anyone there?');
    expect(run.status).toBe('failed');
    expect(run.error).toBe(
      `model provider dead is unreachable at ${deadUrl}/chat/completions (ECONNREFUSED): check models.providers.dead.baseUrl`,
    );

    const health = await fetch(`${gw.url}/healthz`);
    expect(health.status).toBe(200);
    // And other agents still run.
    const { run: echo } = await spawnAndWait('main', 'still alive');
    expect(echo).toMatchObject({ status: 'completed', reply: '[main] still alive' });
  });

  it('aborting a run stops the in-flight model call and marks the run aborted', async () => {
    anthropic.script(anthropic.stall());
    const spawned = await tools.spawn({ sessionKey: 'agent:claude:main' }, { task: 'think forever' });
    await waitFor('the model call to reach the fake server', async () => anthropic.requests.length === 1);
    expect(runner.abortRun(spawned.runId as string, 'stopped by test')).toBe(true);
    const run = await runner.waitForRun(spawned.runId as string, 2000);
    expect(run).toMatchObject({ status: 'aborted', error: 'stopped by test' });
    await waitFor('the fake server to see the client hang up', async () => anthropic.clientAborts === 1);
  });
});
