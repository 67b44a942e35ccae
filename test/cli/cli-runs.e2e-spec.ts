import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { CLI_TEST_TIMEOUT, CliGateway, startCliGateway } from '../support/cli-gateway';
import type { FakeOpenAiServer } from '../support/fake-openai-server';
import { TestGateway, waitFor } from '../support/gateway-harness';

/**
 * `clawgate runs tree|kill|steer` as real processes against a running gateway's admin API: a run of the main session
 * spawns a session whose model stalls; the CLI prints the tree, steers the spawned session, and kills the tree.
 */
const OPERATOR = 'cli-runs-operator-token-7e8f';
const VIEWER = 'cli-runs-viewer-token-3c4d';

describe('clawgate runs against a running gateway (e2e)', () => {
  let served: CliGateway;
  let gw: TestGateway;
  let model: FakeOpenAiServer;
  let rootRun: string;
  let childRun: string;
  const cli = (args: string[], env?: NodeJS.ProcessEnv) => served.cli(args, env);

  beforeAll(async () => {
    served = await startCliGateway({
      token: OPERATOR,
      scriptModel: (fake) => {
        // The main session's first call spawns; its second answers; the spawned session's call never ends.
        fake.script(fake.toolCall('sessions_spawn', { task: 'slow work' }), fake.text('spawned it'));
        fake.always(fake.stall());
      },
      config: (modelBaseUrl) => `{
        models: { providers: { fake: { api: "openai-chat", baseUrl: "${modelBaseUrl}" } } },
        agents: { list: [{ id: "main", default: true, model: "fake/m" }] },
        gateway: { admin: { tokens: [{ name: "op", token: "${OPERATOR}", role: "operator" }, { name: "ro", token: "${VIEWER}", role: "viewer" }] } },
      }`,
    });
    ({ gw, model } = served);
    const runner = gw.app.get(AgentRunner);
    const root = runner.startRun({ sessionKey: 'agent:main:main', message: 'start' });
    rootRun = root.runId;
    expect((await root.done).status).toBe('completed');
    childRun = await waitFor('the spawned run to reach its model', async () => {
      const [child] = runner.descendantsOf(rootRun);
      return child?.status === 'running' && model.requests.length >= 3 && child.runId;
    });
  }, 120_000);
  afterAll(() => served?.stop(), CLI_TEST_TIMEOUT);

  it(
    'runs tree prints one indented line per run, --json the gateway’s answer; steer queues; kill stops the tree',
    async () => {
      const tree = await cli(['runs', 'tree', rootRun]);
      expect(tree).toMatchObject({ code: 0, stderr: '' });
      const lines = tree.stdout.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(new RegExp(`^${rootRun}  completed  main  agent:main:main  fake/m  22/14 tok  -  \\d+\\.\\ds$`));
      expect(lines[1]).toMatch(new RegExp(`^  ${childRun}  running  main  agent:main:subagent:[0-9a-f-]+  fake/m  -  -  \\d+\\.\\ds$`));
      const json = JSON.parse((await cli(['runs', 'tree', rootRun, '--json'])).stdout);
      expect(json).toMatchObject({ runId: rootRun, status: 'completed', children: [{ runId: childRun, status: 'running' }] });

      const childSession = json.children[0].sessionKey as string;
      const steer = await cli(['runs', 'steer', childSession, 'hurry up']);
      expect(steer.code).toBe(0);
      expect(steer.stdout).toMatch(new RegExp(`^steered ${childSession}: run [0-9a-f-]{36} \\(queued behind 1\\)\\n$`));

      const killed = await cli(['runs', 'kill', rootRun]);
      expect(killed).toMatchObject({ code: 0, stderr: '' });
      const out = killed.stdout.trim().split('\n');
      expect(out[0]).toBe(`aborted 2 run(s) on ${gw.url}`);
      expect(out[2]).toMatch(new RegExp(`^  ${childRun}  aborted  `));
      expect(out[3]).toMatch(/^ {2}[0-9a-f-]{36} {2}aborted {2}main {2}agent:main:subagent:/);
      expect(model.clientAborts).toBe(1);

      const again = await cli(['runs', 'kill', rootRun, '--json']);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`answered HTTP 400: run ${rootRun} and the runs it started are already over (completed)`);
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'fails naming the problem: an unknown run, a viewer token',
    async () => {
      const unknown = '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b';
      const missing = await cli(['runs', 'tree', unknown]);
      expect(missing).toMatchObject({ code: 1, stdout: '' });
      expect(missing.stderr).toContain(`/admin/runs/${unknown}/tree answered HTTP 404: no run with id "${unknown}"`);
      const viewer = await cli(['runs', 'kill', rootRun], { CLAWGATE_TOKEN: VIEWER });
      expect(viewer.code).toBe(1);
      expect(viewer.stderr).toContain('answered HTTP 403: this endpoint requires the "operator" role');
      expect(viewer.stdout + viewer.stderr).not.toContain(VIEWER);
    },
    CLI_TEST_TIMEOUT,
  );
});
