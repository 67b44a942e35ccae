import { CliBuild, CliRun, runCli, transpileCli } from '../fixtures/cli-runner';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/** `clawgate usage` as a real process against a running gateway's GET /admin/usage (viewer role): table, --json, errors. */
const VIEWER = 'cli-usage-viewer-token-7d3a';
const HERMES = 'hermes-peer-token-usage-0123';
const CLI_TEST_TIMEOUT = 180_000;

describe('clawgate usage against a running gateway (e2e)', () => {
  let build: CliBuild;
  let gw: TestGateway;
  let model: FakeOpenAiServer;
  const cli = (args: string[]): Promise<CliRun> =>
    runCli(build.cliJs, args, { HOME: gw.dir, CLAWGATE_URL: gw.url, CLAWGATE_TOKEN: VIEWER });

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    model.always(model.text('priced answer', { prompt_tokens: 1000, completion_tokens: 100 }));
    [build, gw] = await Promise.all([
      transpileCli(),
      startTestGateway(`{
        models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}", models: [{ id: "m", cost: { input: 3, output: 15 } }] } } },
        agents: { list: [{ id: "main", default: true, model: "fake/m" }] },
        channels: { a2a: { enabled: true, peers: { hermes: { token: "${HERMES}" } } } },
        gateway: { admin: { tokens: [{ name: "ro", token: "${VIEWER}", role: "viewer" }] } },
      }`),
    ]);
    for (const text of ['one', 'two']) await a2aRpc(gw.url, HERMES, 'SendMessage', userMessage(text));
  }, 120_000);
  afterAll(async () => {
    await Promise.all([build?.remove(), gw?.stop()]);
    await model?.close();
  });

  it(
    'prints the groups as a table, and --json as the gateway answered',
    async () => {
      const table = await cli(['usage', '--by', 'peer']);
      expect(table.stderr).toBe('');
      expect(table.code).toBe(0);
      const lines = table.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^usage by peer, \S+ – \S+$/);
      expect(lines[1].split(/\s+/)).toEqual(['peer', 'calls', 'input', 'output', 'cached', 'cost']);
      // (2000 × 3 + 200 × 15) / 1e6
      expect(lines[2].split(/\s+/)).toEqual(['hermes', '2', '2000', '200', '0', '0.009000']);

      const json = await cli(['usage', '--since', '1h', '--json']);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({
        groupBy: 'agent',
        items: [{ group: 'main', calls: 2, inputTokens: 2000, outputTokens: 200, cost: expect.closeTo(0.009, 12) }],
      });
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'fails with exit 1 naming the option the gateway refused',
    async () => {
      const bad = await cli(['usage', '--by', 'tenant']);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('HTTP 400: groupBy must be one of agent, session, peer, key, account, model (got "tenant")');
    },
    CLI_TEST_TIMEOUT,
  );
});
