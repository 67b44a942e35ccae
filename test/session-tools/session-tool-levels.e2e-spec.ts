import request from 'supertest';
import { ConfigStore } from '../../src/modules/config';
import { agentBrain } from '../support/agent-brain';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import type { RecordedRequest } from '../support/fake-model-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * OpenClaw's per-session tool levels on a real gateway (docs/configuration.md#tools): `tools.subagents.tools`
 * narrows what a session started by sessions_spawn is offered, `tools.sandbox.tools` what a sandboxed session is
 * offered — read from the tool list each model request carries, and from what the gateway answers when the model
 * calls a tool it was not offered anyway. Both hot-reloaded.
 */
const DESK = 'desk-token-0123456789abcdef';

describe('per-session tool levels (e2e, scripted model)', () => {
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  /** What the child's model got back when it called sessions_list regardless. */
  const childResults: Array<Record<string, unknown>> = [];

  const config = (tools: string, sandbox = 'off') => `{
    models: { providers: { brain: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
    agents: { defaults: { sandbox: { mode: "${sandbox}" } }, list: [{ id: "main", default: true, model: "brain/main" }] },
    session: { dmScope: "main" },
    tools: ${tools},
    channels: { http: { enabled: true, accounts: { desk: { token: "${DESK}" } } } },
  }`;

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    model.always(
      agentBrain(model, ({ message, toolResult }) => {
        if (message === 'spawn a lister') {
          return toolResult
            ? { text: `spawned ${String(toolResult.status)}` }
            : { tool: 'sessions_spawn', args: { task: 'list the sessions' } };
        }
        if (message === 'list the sessions') {
          if (!toolResult) return { tool: 'sessions_list', args: {} };
          childResults.push(toolResult);
          return { text: 'listed' };
        }
        return { text: 'ok' };
      }),
    );
    gw = await startTestGateway(config('{ subagents: { tools: { deny: ["sessions_list"] } } }'));
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
  });

  const mainAgent = () => gw.app.get(ConfigStore).current().config.agents[0];

  /** The names of the tools a model request offered. */
  const offered = (req: RecordedRequest): string[] =>
    ((req.body.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);
  const requestsFor = (text: string) =>
    model.requests.filter((r) =>
      (r.body.messages as Array<{ role: string; content: string }>).some((m) => m.role === 'user' && m.content === text),
    );

  const ask = (text: string) =>
    request(gw.url)
      .post('/channels/http/messages')
      .set('Authorization', `Bearer ${DESK}`)
      .send({ peer: { kind: 'direct', id: 'op' }, text });

  /** Sends "spawn a lister" to the main session and waits for the child's run to end. */
  async function spawnLister(): Promise<void> {
    const before = childResults.length;
    const res = await ask('spawn a lister');
    expect(res.status).toBe(200);
    expect(res.body.reply).toBe('spawned accepted');
    await waitFor('the child run to call sessions_list', async () => childResults.length > before, 10_000);
  }

  it('a spawned session is not offered what tools.subagents.tools denies, and calling it anyway is refused; the parent keeps it', async () => {
    model.reset();
    await spawnLister();
    const parent = requestsFor('spawn a lister')[0];
    const child = requestsFor('list the sessions')[0];
    expect(offered(parent)).toContain('sessions_list');
    expect(offered(parent)).toContain('sessions_spawn');
    expect(offered(child)).not.toContain('sessions_list');
    expect(offered(child)).toContain('sessions_spawn');
    expect(childResults.at(-1)).toEqual({ status: 'error', error: expect.stringMatching(/^unknown tool "sessions_list"; available: /) });
  });

  it('hot: dropping the level gives the child the tool back; tools.sandbox.tools narrows sandboxed sessions, the main one kept', async () => {
    await gw.writeConfig(config('{}'));
    await waitFor('the reload', async () => mainAgent().sessionTools === undefined, 10_000);
    model.reset();
    await spawnLister();
    expect(offered(requestsFor('list the sessions')[0])).toContain('sessions_list');
    expect(childResults.at(-1)).toMatchObject({ status: 'ok' });

    // non-main: the spawned session is sandboxed, the main session (where the http desk lands) is not.
    await gw.writeConfig(config('{ sandbox: { tools: { allow: ["session_status", "sessions_list"] } } }', 'non-main'));
    await waitFor('the reload', async () => mainAgent().sessionTools !== undefined && mainAgent().sandbox.mode === 'non-main', 10_000);
    model.reset();
    await spawnLister();
    expect(offered(requestsFor('spawn a lister')[0])).toContain('sessions_spawn');
    expect(offered(requestsFor('list the sessions')[0]).sort()).toEqual(['session_status', 'sessions_list']);
  });
});
