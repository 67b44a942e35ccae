import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { CLI_TEST_TIMEOUT, CliGateway, startCliGateway } from '../support/cli-gateway';
import type { FakeOpenAiServer } from '../support/fake-openai-server';
import { TestGateway, waitFor } from '../support/gateway-harness';

/**
 * `clawgate sessions list|show|export --remote` and `clawgate tasks list|show|cancel` as real processes against a
 * running gateway's admin API: what they print, that --json is the gateway's answer, and how they fail.
 */
const ADMIN = 'cli-remote-admin-token-4f1e';
const VIEWER = 'cli-remote-viewer-token-9c2b';
const HERMES = 'hermes-peer-token-0123456789';
const IRIS = 'iris-peer-token-9876543210ab';

describe('clawgate sessions / tasks against a running gateway (e2e)', () => {
  let served: CliGateway;
  let gw: TestGateway;
  let model: FakeOpenAiServer;
  let doneTask: string;
  let workingTask: string;
  const cli = (args: string[], env?: NodeJS.ProcessEnv) => served.cli(args, env);
  const admin = (url: string) => request(gw.url).get(url).set('Authorization', `Bearer ${ADMIN}`).expect(200);

  beforeAll(async () => {
    served = await startCliGateway({
      token: ADMIN,
      scriptModel: (fake) => fake.always(fake.stall()),
      config: (modelBaseUrl) => `{
        models: { providers: { fake: { api: "openai-chat", baseUrl: "${modelBaseUrl}" } } },
        agents: { list: [{ id: "main", default: true }, { id: "slow", model: "fake/slow" }] },
        bindings: [{ agentId: "slow", match: { channel: "a2a", peer: { kind: "direct", id: "iris" } } }],
        channels: { a2a: { enabled: true, peers: { hermes: { token: "${HERMES}" }, iris: { token: "${IRIS}" } } } },
        gateway: { admin: { tokens: [{ name: "root", token: "${ADMIN}", role: "admin" }, { name: "ro", token: "${VIEWER}", role: "viewer" }] } },
      }`,
    });
    ({ gw, model } = served);
    const done = await a2aRpc(gw.url, HERMES, 'SendMessage', userMessage('hello there'));
    doneTask = done.result.task.id;
    const working = await a2aRpc(gw.url, IRIS, 'SendMessage', { ...userMessage('think long'), configuration: { returnImmediately: true } });
    workingTask = working.result.task.id;
    await waitFor('the slow run to reach the model', async () => model.requests.length >= 1);
  }, 120_000);
  afterAll(() => served?.stop(), CLI_TEST_TIMEOUT);

  it(
    'sessions list: one line per session, filters, pages with --cursor, --json as answered',
    async () => {
      const all = await cli(['sessions', 'list']);
      expect(all).toMatchObject({ code: 0, stderr: '' });
      const lines = all.stdout.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines.join('\n')).toMatch(/^agent:main:a2a:\S+ {2}main {2}- {2}\d{4}-/m);

      const slow = await cli(['sessions', 'list', '--agent', 'slow']);
      expect(slow.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^agent:slow:\S+ {2}slow {2}/)]);
      expect((await cli(['sessions', 'list', '--label', 'nobody-has-this'])).stdout).toBe('no sessions\n');
      // An agent the config does not have is an error, not "no sessions" (a typo would read as an empty agent).
      const nobody = await cli(['sessions', 'list', '--agent', 'slwo']);
      expect(nobody).toMatchObject({ code: 1, stdout: '' });
      expect(nobody.stderr).toContain('clawgate: no agent "slwo" in the config and no session of one by that id (did you mean "slow"?)');

      const first = await cli(['sessions', 'list', '--limit', '1']);
      const cursor = /^more: --cursor (\S+)$/m.exec(first.stdout)?.[1];
      expect(cursor).toBeDefined();
      const second = await cli(['sessions', 'list', '--limit', '1', '--cursor', cursor!]);
      expect(second.stdout.split('\n')[0]).not.toBe(first.stdout.split('\n')[0]);
      expect([first.stdout, second.stdout].map((s) => s.split('  ')[0]).sort()).toEqual(lines.map((l) => l.split('  ')[0]).sort());

      const json = await cli(['sessions', 'list', '--json']);
      expect(JSON.parse(json.stdout)).toEqual((await admin('/admin/sessions')).body);
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'sessions show and export --remote: the entry, and the transcript as the gateway exports it',
    async () => {
      const key = (await admin('/admin/sessions?agentId=main')).body.sessions[0].sessionKey as string;
      const shown = await cli(['sessions', 'show', key]);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain(`session ${key}\n`);
      expect(shown.stdout).toMatch(/^ {2}agent: {4}main$/m);
      expect(JSON.parse((await cli(['sessions', 'show', key, '--json'])).stdout)).toEqual(
        (await admin(`/admin/sessions/${encodeURIComponent(key)}`)).body,
      );
      // The transcript on request: its last lines, oldest first.
      const transcript = await cli(['sessions', 'show', key, '--transcript']);
      expect(transcript.code).toBe(0);
      expect(transcript.stdout).toContain('transcript (last lines, oldest first):\n');
      expect(transcript.stdout).toMatch(/^ {2}\d{4}-\S+ {2}user: .*hello there/m);
      expect(transcript.stdout).toMatch(/^ {2}\d{4}-\S+ {2}assistant: /m);
      const lastOne = await cli(['sessions', 'show', key, '--transcript', '1', '--json']);
      expect(JSON.parse(lastOne.stdout).history.lines).toHaveLength(1);

      const exported = (
        await request(gw.url)
          .get(`/admin/sessions/${encodeURIComponent(key)}/export`)
          .set('Authorization', `Bearer ${ADMIN}`)
          .buffer(true)
          .parse((res, cb) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => cb(null, text));
          })
      ).body as string;
      expect(exported).toContain('hello there');
      const stdout = await cli(['sessions', 'export', key, '--remote']);
      expect(stdout).toMatchObject({ code: 0, stdout: exported });

      const file = path.join(gw.dir, 'remote-export.jsonl');
      const written = await cli(['sessions', 'export', key, '--remote', '-o', file]);
      expect(written.code).toBe(0);
      expect(written.stderr).toContain(`wrote ${file}`);
      expect(await fs.readFile(file, 'utf8')).toBe(exported);
      expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
      // Like the local export: an existing file is never overwritten.
      const again = await cli(['sessions', 'export', key, '--remote', '-o', file]);
      expect(again).toMatchObject({ code: 1 });
      expect(again.stderr).toContain(`cannot write ${file} (EEXIST)`);
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'tasks list, show and cancel',
    async () => {
      const list = await cli(['tasks', 'list']);
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(new RegExp(`^${doneTask} {2}completed {2}hermes {2}main {2}`, 'm'));
      expect(list.stdout).toMatch(new RegExp(`^${workingTask} {2}working {2}iris {2}slow {2}`, 'm'));
      expect((await cli(['tasks', 'list', '--peer', 'iris'])).stdout.trim().split('\n')).toHaveLength(1);
      // The states it prints are the ones --state takes (the protocol's names too).
      for (const state of ['completed', 'TASK_STATE_COMPLETED']) {
        expect((await cli(['tasks', 'list', '--state', state])).stdout.trim().split('\n')).toEqual([
          expect.stringMatching(new RegExp(`^${doneTask} {2}completed `)),
        ]);
      }
      expect(JSON.parse((await cli(['tasks', 'list', '--json'])).stdout)).toEqual((await admin('/admin/a2a/tasks')).body);

      const shown = await cli(['tasks', 'show', doneTask]);
      expect(shown.stdout).toContain(`task ${doneTask}: completed\n`);
      expect(shown.stdout).toMatch(/^ {2}reply: {4}.*hello there/m);
      expect(JSON.parse((await cli(['tasks', 'show', doneTask, '--json'])).stdout)).toEqual(
        (await admin(`/admin/a2a/tasks/${doneTask}`)).body,
      );

      const canceled = await cli(['tasks', 'cancel', workingTask]);
      expect(canceled).toMatchObject({ code: 0, stderr: '' });
      expect(canceled.stdout).toContain(`canceled task ${workingTask} on ${gw.url}\n`);
      expect(canceled.stdout).toContain(`task ${workingTask}: canceled\n`);
      // Over now: the gateway's 400, exit 1.
      const over = await cli(['tasks', 'cancel', workingTask]);
      expect(over.code).toBe(1);
      expect(over.stderr).toMatch(new RegExp(`/admin/a2a/tasks/${workingTask}/cancel answered HTTP 400: .+`));
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'fails saying why: unreachable, no or a wrong token (never shown), a role too low, not found, bad input',
    async () => {
      const away = await cli(['tasks', 'list'], { CLAWGATE_URL: 'http://127.0.0.1:1' });
      expect(away.code).toBe(1);
      expect(away.stderr).toMatch(/cannot reach the gateway at http:\/\/127\.0\.0\.1:1 .*set CLAWGATE_URL/);

      const none = await cli(['sessions', 'list'], { CLAWGATE_TOKEN: '' });
      expect(none.code).toBe(1);
      expect(none.stderr).toContain(`${gw.url}/admin/sessions answered HTTP 401`);
      expect(none.stderr).toContain('set CLAWGATE_TOKEN to an admin token');
      const wrongToken = 'not-a-token-of-this-gateway-77';
      const wrong = await cli(['sessions', 'show', 'agent:main:main'], { CLAWGATE_TOKEN: wrongToken });
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain('answered HTTP 401');
      expect(wrong.stdout + wrong.stderr).not.toContain(wrongToken);

      const viewer = await cli(['tasks', 'cancel', doneTask], { CLAWGATE_TOKEN: VIEWER });
      expect(viewer.code).toBe(1);
      expect(viewer.stderr).toContain('answered HTTP 403: this endpoint requires the "operator" role');
      expect(viewer.stdout + viewer.stderr).not.toContain(VIEWER);

      const noSession = await cli(['sessions', 'show', 'agent:main:nope']);
      expect(noSession.code).toBe(1);
      expect(noSession.stderr).toMatch(/\/admin\/sessions\/agent%3Amain%3Anope answered HTTP 404: .*agent:main:nope/);
      const noTask = await cli(['tasks', 'show', 'no-such-task']);
      expect(noTask.code).toBe(1);
      expect(noTask.stderr).toContain('/admin/a2a/tasks/no-such-task answered HTTP 404');
      const noExport = await cli(['sessions', 'export', 'agent:main:nope', '--remote']);
      expect(noExport).toMatchObject({ code: 1, stdout: '' });
      expect(noExport.stderr).toContain('answered HTTP 404');

      const badLimit = await cli(['sessions', 'list', '--limit', '0']);
      expect(badLimit.code).toBe(1);
      expect(badLimit.stderr).toMatch(/answered HTTP 400: .*limit/);
      const badState = await cli(['tasks', 'list', '--state', 'bogus']);
      expect(badState.code).toBe(1);
      expect(badState).toMatchObject({ code: 1, stdout: '' });
      expect(badState.stderr).toBe(
        'clawgate: --state "bogus" is not a task state; use one of submitted, working, completed, failed, canceled, rejected, input_required, auth_required\n',
      );
      // The gateway answered every one of them and is still up.
      await admin('/admin/config/status');
    },
    CLI_TEST_TIMEOUT,
  );
});
