import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CliBuild, CliRun, runCli as runCliProcess, transpileCli } from '../fixtures/cli-runner';
import { CHAT_MANIFEST } from '../support/chat-channel-plugin';
import { writePluginDir } from '../support/plugin-dirs';

/**
 * `clawgate channels add <id> <setup flags>` as a user runs it (docs/channels.md#operations): the flags come from the
 * channel's setup fields (in its plugin's manifest: the bundled a2a one, a plugin's on disk), a secret only as a `${VAR}` reference or from
 * stdin, written with the comment-keeping writer; then `config validate` accepts the file.
 */

const CONFIG = `// my gateway
{
  agents: { list: [{ id: "main" }] }, // one agent
  plugins: { load: { paths: ["./plugins"] } },
}
`;
const TOKEN = 'a2a-hermes-token-value-0001';

let build: CliBuild;
let tmp: string;
let configPath: string;
let stateDir: string;

function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runCliProcess(build.cliJs, [...args, '--config', configPath, '--state-dir', stateDir], {
    HOME: tmp,
    CLAWGATE_LOG_LEVEL: 'silent',
    ...env,
  });
}

beforeAll(async () => {
  build = await transpileCli();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-cli-channels-'));
  configPath = path.join(tmp, 'openclaw.json');
  stateDir = path.join(tmp, 'state');
  await fs.writeFile(configPath, CONFIG);
  await writePluginDir(path.join(tmp, 'plugins', 'chatkit'), { manifest: CHAT_MANIFEST });
}, 180_000);

afterAll(async () => {
  await build?.remove();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

/** Each test runs the CLI a few times; on a loaded machine one run may take several seconds. */
const CLI_TEST_MS = 180_000;

describe('clawgate channels add', () => {
  it(
    'channels add a2a writes the token as a ${VAR} reference, keeps comments, and the config validates',
    async () => {
      const add = await runCli(
        [
          'channels',
          'add',
          'a2a',
          '--advertised-url',
          'https://gw.example',
          '--peer-name',
          'hermes',
          '--peer-token-env',
          'A2A_HERMES_TOKEN',
        ],
        { A2A_HERMES_TOKEN: TOKEN },
      );
      expect(add.stderr).toBe('');
      expect(add.code).toBe(0);
      expect(add.stdout).toContain('set up channel a2a (revision ');
      const text = await fs.readFile(configPath, 'utf8');
      expect(text).toContain('// my gateway');
      expect(text).toContain('// one agent');
      expect(text).toContain('token: "${A2A_HERMES_TOKEN}"');
      expect(text).toContain('advertisedUrl: "https://gw.example"');
      expect(text).not.toContain(TOKEN);

      // `config validate` takes the file as its argument (no --config).
      const validate = await runCliProcess(build.cliJs, ['config', 'validate', configPath, '--state-dir', stateDir], {
        HOME: tmp,
        CLAWGATE_LOG_LEVEL: 'silent',
        A2A_HERMES_TOKEN: TOKEN,
      });
      expect(validate.code).toBe(0);
      expect(validate.stdout).toMatch(/^ok \(revision /);
      for (const run of [add, validate]) expect(run.stdout + run.stderr).not.toContain(TOKEN);
    },
    CLI_TEST_MS,
  );

  it(
    "a plugin's channel takes its manifest's setup fields; --json names the keys written, never a value",
    async () => {
      const add = await runCli(['channels', 'add', 'chat', '--bot-token-env', 'CHAT_BOT_TOKEN', '--json'], {
        CHAT_BOT_TOKEN: 'chat-secret-0001',
      });
      expect(add.code).toBe(0);
      expect(JSON.parse(add.stdout)).toMatchObject({ channel: 'chat', keys: ['enabled', 'botToken'], configPath });
      expect(await fs.readFile(configPath, 'utf8')).toContain('botToken: "${CHAT_BOT_TOKEN}"');
    },
    CLI_TEST_MS,
  );

  it(
    'refuses a secret on the command line, an unknown flag and an unknown channel, naming them; nothing is written',
    async () => {
      const before = await fs.readFile(configPath, 'utf8');
      const literal = await runCli(['channels', 'add', 'a2a', '--peer-name', 'hermes', '--peer-token', TOKEN]);
      expect(literal.code).toBe(1);
      expect(literal.stderr).toContain('--peer-token is a secret: give --peer-token-env <VARIABLE>');
      expect(literal.stderr + literal.stdout).not.toContain(TOKEN);
      const unknownFlag = await runCli(['channels', 'add', 'a2a', '--advertized-url', 'https://x.example']);
      expect(unknownFlag.code).toBe(1);
      expect(unknownFlag.stderr).toContain('unknown option --advertized-url');
      const unknownChannel = await runCli(['channels', 'add', 'chta', '--bot-token-env', 'X']);
      expect(unknownChannel.code).toBe(1);
      expect(unknownChannel.stderr).toContain('no channel "chta" (did you mean "chat"?)');
      const badEnv = await runCli(['channels', 'add', 'chat', '--bot-token-env', 'not a name']);
      expect(badEnv.code).toBe(1);
      expect(badEnv.stderr).toContain('"not a name" is not an environment variable name');
      expect(await fs.readFile(configPath, 'utf8')).toBe(before);
    },
    CLI_TEST_MS,
  );
});
