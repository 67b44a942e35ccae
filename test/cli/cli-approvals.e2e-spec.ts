import { CliBuild, CliRun, runCli, transpileCli } from '../fixtures/cli-runner';
import { a2aRpc } from '../support/a2a-rpc';
import { agentBrain } from '../support/agent-brain';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * `clawgate approvals list|approve|deny` as a real process against a running gateway's /admin/approvals: the pending
 * call listed, approved with a note (the task completes), a second decision refused naming the first, a viewer refused.
 */
const OPERATOR = 'cli-approvals-operator-token-4b1e';
const VIEWER = 'cli-approvals-viewer-token-8c2f';
const HERMES = 'hermes-peer-token-approvals-cli';
const CLI_TEST_TIMEOUT = 180_000;

describe('clawgate approvals against a running gateway (e2e)', () => {
  let build: CliBuild;
  let gw: TestGateway;
  let model: FakeOpenAiServer;
  const cli = (args: string[], token = OPERATOR): Promise<CliRun> =>
    runCli(build.cliJs, args, { HOME: gw.dir, CLAWGATE_URL: gw.url, CLAWGATE_TOKEN: token });
  const taskState = async (id: string) =>
    ((await a2aRpc(gw.url, HERMES, 'GetTask', { id })).result as { status: { state: string } }).status.state;

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    model.always(
      agentBrain(model, ({ toolResult }) =>
        toolResult ? { text: `done: ${String(toolResult.status)}` } : { tool: 'session_status', args: {} },
      ),
    );
    [build, gw] = await Promise.all([
      transpileCli(),
      startTestGateway(`{
        models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
        agents: { list: [{ id: "main", default: true, model: "fake/brain", tools: { requiresApproval: ["session_status"] } }] },
        channels: { a2a: { enabled: true, peers: { hermes: { token: "${HERMES}" } } } },
        gateway: { admin: { tokens: [{ name: "ops", token: "${OPERATOR}", role: "operator" }, { name: "ro", token: "${VIEWER}", role: "viewer" }] } },
      }`),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([build?.remove(), gw?.stop()]);
    await model?.close();
  });

  it(
    'lists the waiting call, approves it with a note, and refuses a second decision',
    async () => {
      const none = await cli(['approvals', 'list']);
      expect(none.stdout.trim()).toBe('no tool call waits for approval');
      const sent = await a2aRpc(gw.url, HERMES, 'SendMessage', {
        message: { messageId: 'cli-1', role: 'ROLE_USER', parts: [{ text: 'status?' }] },
        configuration: { returnImmediately: true },
      });
      const taskId = (sent.result as { task: { id: string } }).task.id;
      await waitFor('the task to wait', async () => (await taskState(taskId)) === 'TASK_STATE_INPUT_REQUIRED', 15_000);

      const listed = await cli(['approvals', 'list'], VIEWER);
      expect(listed.code).toBe(0);
      const [line] = listed.stdout.trim().split('\n');
      const [id, state, agent, tool, args, from] = line.split('  ');
      expect([state, agent, tool, args, from]).toEqual(['pending', 'main', 'session_status', '{}', `a2a:hermes task ${taskId}`]);

      const refused = await cli(['approvals', 'approve', id], VIEWER);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/403/);

      const approved = await cli(['approvals', 'approve', id, '--note', 'checked']);
      expect(approved.stderr).toBe('');
      expect(approved.stdout.trim()).toBe(`approved session_status for agent main (approval ${id}, by token:ops)`);
      await waitFor('the task to complete', async () => (await taskState(taskId)) === 'TASK_STATE_COMPLETED', 15_000);

      const again = await cli(['approvals', 'deny', id, '--json']);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/already approved \(by token:ops/);
      const all = await cli(['approvals', 'list', '--all', '--json'], VIEWER);
      expect(JSON.parse(all.stdout)).toMatchObject([{ id, state: 'approved', decidedBy: 'token:ops', note: 'checked' }]);
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'names an unknown approval',
    async () => {
      const unknown = await cli(['approvals', 'deny', 'no-such-approval']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/no approval with id no-such-approval/);
    },
    CLI_TEST_TIMEOUT,
  );
});
