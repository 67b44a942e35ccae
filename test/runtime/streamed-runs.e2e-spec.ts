import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import type { ReplyDelta } from '../../src/modules/runtime/reply-deltas';
import type { RunRecord } from '../../src/modules/runtime/run-registry';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { FakeAnthropicServer } from '../support/fake-anthropic-server';
import { FakeOpenAiServer, tokenText } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * Runs whose caller asks for the reply as it is written (`StartRunInput.onReplyDelta`): a real gateway, the echo
 * model and real HTTP providers (fake OpenAI and Anthropic servers streaming their SSE formats).
 * See docs/runtime.md#streamed-replies.
 */
const config = (openai: string, anthropic: string) => `{
  models: { providers: {
    "local-openai": { api: "openai-chat", baseUrl: "${openai}" },
    "plain-openai": { api: "openai-chat", baseUrl: "${openai}", stream: false },
    anthropic: { baseUrl: "${anthropic}", apiKey: "sk-ant-streamed-runs-1" },
    slowecho: { api: "echo", streamDelayMs: 40 },
  } },
  agents: { list: [
    { id: "main", default: true },
    { id: "gpt", model: "local-openai/gpt-test" },
    { id: "plain", model: "plain-openai/gpt-test" },
    { id: "claude", model: "anthropic/claude-test" },
    { id: "slow", model: "slowecho/default" },
  ] },
}`;

describe('streamed runs (e2e): onReplyDelta', () => {
  let gw: TestGateway;
  let openai: FakeOpenAiServer;
  let anthropic: FakeAnthropicServer;
  let runner: AgentRunner;
  let store: SessionStore;

  beforeAll(async () => {
    openai = await new FakeOpenAiServer().start();
    anthropic = await new FakeAnthropicServer().start();
    gw = await startTestGateway(config(openai.baseUrl, anthropic.baseUrl));
    runner = gw.app.get(AgentRunner);
    store = gw.app.get(SESSION_STORE);
  });
  afterAll(async () => {
    await gw?.stop();
    await Promise.all([openai?.close(), anthropic?.close()]);
  });
  beforeEach(() => {
    openai.reset();
    anthropic.reset();
  });

  /** Runs `message` in a fresh session of `agentId`, collecting its deltas. */
  async function streamedRun(agentId: string, message: string, sessionKey = `agent:${agentId}:test:${Date.now()}`) {
    const deltas: ReplyDelta[] = [];
    const handle = runner.startRun({ sessionKey, message, onReplyDelta: (d) => deltas.push(d) });
    const run: RunRecord = await handle.done;
    return { run, deltas, sessionKey };
  }
  const lastRoundText = (deltas: ReplyDelta[]) => {
    const last = Math.max(...deltas.map((d) => d.round));
    return deltas
      .filter((d) => d.round === last)
      .map((d) => d.text)
      .join('');
  };

  it('echo: word by word in round 0; the deltas make exactly the reply and the transcript line', async () => {
    const { run, deltas, sessionKey } = await streamedRun('main', 'stream me please');
    expect(run).toMatchObject({ status: 'completed', reply: '[main] stream me please' });
    expect(deltas).toEqual([
      { round: 0, text: '[main] ' },
      { round: 0, text: 'stream ' },
      { round: 0, text: 'me ' },
      { round: 0, text: 'please' },
    ]);
    const { lines } = await store.history(sessionKey);
    expect(lines.at(-1)).toMatchObject({ role: 'assistant', text: '[main] stream me please' });
  });

  it('echo with streamDelayMs: the words arrive apart, before the run is over', async () => {
    const times: number[] = [];
    const started = Date.now();
    const handle = runner.startRun({
      sessionKey: 'agent:slow:test:delay',
      message: 'one two three',
      onReplyDelta: () => times.push(Date.now() - started),
    });
    const run = await handle.done;
    expect(run.reply).toBe('[slow] one two three');
    expect(times).toHaveLength(4);
    expect(times[3] - times[0]).toBeGreaterThanOrEqual(100);
  });

  it('openai-chat: a tool round streams too; round numbers tell the rounds apart; the reply is the last round', async () => {
    openai.script(openai.toolCall('session_status', {}, 'Checking the session.'), openai.textAfterToolResult('Everything is fine here.'));
    const { run, deltas, sessionKey } = await streamedRun('gpt', 'how is it going?');
    expect(openai.violations).toEqual([]);
    expect(openai.requests.map((r) => r.body.stream)).toEqual([true, true]);
    expect(run).toMatchObject({ status: 'completed', toolRounds: 1, usage: { inputTokens: 22, outputTokens: 14 } });
    expect(deltas.filter((d) => d.round === 0).map((d) => d.text)).toEqual(['Checking ', 'the ', 'session.']);
    expect(deltas.filter((d) => d.round === 1).map((d) => d.text)).toEqual(['Everything ', 'is ', 'fine ', 'here.']);
    expect(lastRoundText(deltas)).toBe(run.reply);
    const { lines } = await store.history(sessionKey);
    expect(lines.map((l) => l.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(lines[1].toolCalls).toEqual([{ id: 'call_1', name: 'session_status', arguments: {} }]);
  });

  it('anthropic-messages: tool_use through input_json_delta, then the streamed answer', async () => {
    anthropic.script(anthropic.toolUse('session_status', {}, 'Looking.'), anthropic.textAfterToolResult('All quiet.'));
    const { run, deltas } = await streamedRun('claude', 'status?');
    expect(anthropic.violations).toEqual([]);
    expect(run).toMatchObject({ status: 'completed', reply: 'All quiet.', toolRounds: 1 });
    expect(deltas).toEqual([
      { round: 0, text: 'Looking.' },
      { round: 1, text: 'All ' },
      { round: 1, text: 'quiet.' },
    ]);
  });

  it('tokens arrive while the model is still writing', async () => {
    openai.script(openai.tokens(6, 60));
    const firstAt: number[] = [];
    let runOverAt = 0;
    const started = Date.now();
    const handle = runner.startRun({
      sessionKey: 'agent:gpt:test:tokens',
      message: 'count',
      onReplyDelta: () => firstAt.push(Date.now() - started),
    });
    const run = await handle.done;
    runOverAt = Date.now() - started;
    expect(run.reply).toBe(tokenText(6));
    expect(firstAt).toHaveLength(6);
    expect(runOverAt - firstAt[0]).toBeGreaterThanOrEqual(250);
  });

  it('a provider with stream: false gets the plain request; the whole reply comes as one delta', async () => {
    openai.script(openai.text('Not streamed at all.'));
    const { run, deltas } = await streamedRun('plain', 'hi');
    expect(openai.requests[0].body.stream).toBeUndefined();
    // Marked unstreamed: it came whole with the model's answer, so streamed A2A tasks store it as one artifact.
    expect(deltas).toEqual([{ round: 0, text: 'Not streamed at all.', unstreamed: true }]);
    expect(run.reply).toBe('Not streamed at all.');
  });

  it('a caller that asks for no deltas keeps the plain request', async () => {
    openai.script(openai.text('plain'));
    const run = await runner.startRun({ sessionKey: 'agent:gpt:test:plain', message: 'hi' }).done;
    expect(run.reply).toBe('plain');
    expect(openai.requests[0].body).not.toHaveProperty('stream');
  });

  it('an error mid-stream fails the run with the provider message; the deltas so far were delivered', async () => {
    openai.script(openai.streamError('Half an answer', 'The server had an error'));
    const { run, deltas, sessionKey } = await streamedRun('gpt', 'break');
    expect(run).toMatchObject({ status: 'failed', error: 'model provider local-openai failed while streaming: The server had an error' });
    expect(deltas.map((d) => d.text).join('')).toBe('Half an answer');
    const { lines } = await store.history(sessionKey);
    expect(lines.at(-1)).toMatchObject({ role: 'system', text: expect.stringContaining('failed while streaming') });
  });

  it('aborting a streaming run closes the model request; no delta comes after the run is over', async () => {
    openai.script(openai.tokens(30, 100));
    const deltas: ReplyDelta[] = [];
    const handle = runner.startRun({ sessionKey: 'agent:gpt:test:abort', message: 'long', onReplyDelta: (d) => deltas.push(d) });
    await waitFor('two deltas', async () => deltas.length >= 2);
    expect(runner.abortRun(handle.runId, 'stopped by test')).toBe(true);
    const run = await handle.done;
    expect(run).toMatchObject({ status: 'aborted', error: 'stopped by test' });
    await waitFor('the fake server to see the client hang up', async () => openai.clientAborts === 1);
    const count = deltas.length;
    await new Promise((r) => setTimeout(r, 250));
    expect(deltas.length).toBe(count);
  });

  it('a listener that throws does not break the run', async () => {
    const run = await runner.startRun({
      sessionKey: 'agent:main:test:throws',
      message: 'still fine',
      onReplyDelta: () => {
        throw new Error('consumer bug');
      },
    }).done;
    expect(run).toMatchObject({ status: 'completed', reply: '[main] still fine' });
  });
});
