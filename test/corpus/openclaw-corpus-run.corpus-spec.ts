import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import JSON5 from 'json5';
import { CliBuild, REPO_ROOT, runCli, transpileCli } from '../fixtures/cli-runner';
import { FakeAnthropicServer } from '../support/fake-anthropic-server';
import { FakeOpenAiResponsesServer } from '../support/fake-openai-responses-server';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startCliGateway } from './support/cli-gateway';
import { currentFormatFiles, findCorpusDir, placeholderEnv } from './support/corpus-files';
import { seedOpenClawState, snapshotTree } from './support/file-tree';
import {
  agentEntries,
  configuredWorkspace,
  defaultAgentId,
  messageFor,
  modelChain,
  normalizeAgentId,
  openClawAgentFor,
  routingBindings,
} from './support/openclaw-rules';
import { runnableCopy } from './support/runnable-copy';

/**
 * Issue 43, item 4: every current-format file of the OpenClaw config corpus (../shared/openclaw-corpus, read where
 * it is) runs. Each is copied into a fake HOME as ~/.openclaw/openclaw.json, changed only where it must be to run
 * here (test/corpus/support/runnable-copy.ts), beside the state an OpenClaw install keeps there. Then, as an OpenClaw
 * user would try clawgate, `clawgate gateway --config ~/.openclaw/openclaw.json --port 0` starts; its
 * `/admin/config/status` lists the warnings the start logged; one message on the http channel reaches the
 * default agent and gets the fake model's reply; `/admin/routing/resolve` and `/admin/agents` give the default agent,
 * every binding's agent and the workspaces OpenClaw gives; and after the stop nothing under ~/.openclaw was created,
 * changed or removed.
 */

const corpusDir = findCorpusDir(REPO_ROOT);
const files = currentFormatFiles(corpusDir);

let build: CliBuild;
let openai: FakeOpenAiServer;
let anthropic: FakeAnthropicServer;
let responses: FakeOpenAiResponsesServer;
const outcomes: string[] = [];

beforeAll(async () => {
  build = await transpileCli();
  openai = await new FakeOpenAiServer().start();
  openai.always((req) => openai.text(`corpus reply from ${req.body.model}`)(req));
  anthropic = await new FakeAnthropicServer().start();
  anthropic.always((req) => anthropic.text(`corpus reply from ${req.body.model}`)(req));
  responses = await new FakeOpenAiResponsesServer().start();
  responses.always((req) => responses.text(`corpus reply from ${req.body.model}`)(req));
}, 120_000);

afterAll(async () => {
  await Promise.all([openai?.close(), anthropic?.close(), responses?.close(), build?.remove()]);
  const ran = outcomes.filter((o) => o.startsWith('runs')).length;
  console.log(`${ran}/${files.length} current-format corpus files run\n${outcomes.join('\n')}`);
});

async function adminJson(url: string, token: string, route: string, body?: unknown): Promise<any> {
  const res = await fetch(`${url}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${route} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

describe('every current-format OpenClaw config of the corpus runs', () => {
  it.each(files.map((f) => [f.name, f] as const))('%s', async (name, file) => {
    const home = await fs.mkdtemp(path.join(os.tmpdir(), `corpus-${file.id}-`));
    const openclawDir = path.join(home, '.openclaw');
    const configPath = path.join(openclawDir, 'openclaw.json');
    let stage = 'copy';
    let unanswered = '';
    let doctored = 0;
    let warnings = 0;
    try {
      const original = JSON5.parse<Record<string, any>>(file.text);
      const copy = runnableCopy(
        original,
        {
          openAiBaseUrl: openai.baseUrl,
          openAiOrigin: openai.origin,
          anthropicOrigin: anthropic.baseUrl,
          responsesBaseUrl: responses.baseUrl,
        },
        path.join(home, 'root'),
      );
      const env = { PATH: process.env.PATH, HOME: home, CLAWGATE_LOG_LEVEL: 'warn', ...placeholderEnv(file.text), ...copy.env };
      const doc = copy.doc;
      const ids = agentEntries(doc).map((a) => normalizeAgentId(a.id));
      const agentIds = ids.length ? ids : [defaultAgentId(doc)];
      const workspaces = agentIds.flatMap((id) => configuredWorkspace(doc, id, home, openclawDir, env) ?? []);
      await fs.mkdir(openclawDir, { recursive: true });
      await fs.writeFile(configPath, JSON.stringify(doc, null, 2));
      await seedOpenClawState(openclawDir, workspaces);
      // A file OpenClaw itself refuses (keys no version of it has) is first put right as an OpenClaw user would: with
      // the doctor (`clawgate doctor --fix` removes those keys, as `openclaw doctor --fix` does); its rewrite of the
      // file is the user's own command, so the snapshot of what the gateway may not touch is taken after it.
      stage = 'validate';
      if ((await runCli(build.cliJs, ['config', 'validate', configPath], env)).code !== 0) {
        stage = 'doctor';
        const doctor = await runCli(build.cliJs, ['doctor', '--fix', '--config', configPath], env);
        expect({ code: doctor.code, output: doctor.stdout }).toEqual({ code: 0, output: expect.stringContaining('removed: ') });
        doctored = doctor.stdout.split('\n').filter((l) => l.startsWith('removed: ')).length;
      }
      const before = await snapshotTree(openclawDir);

      stage = 'start';
      const gateway = await startCliGateway(build.cliJs, ['--config', '~/.openclaw/openclaw.json', '--port', '0'], env);
      try {
        stage = 'config status';
        const status = await adminJson(gateway.url, copy.adminToken, '/admin/config/status');
        expect(status.configPath).toBe(configPath);
        // The same warnings as the start logged, each once (the log gives the file's line; the status its path).
        const served = (status.warnings as Array<{ path: string; message: string }>).map(
          (w) => `${w.path ? `${w.path}: ` : ''}${w.message}`,
        );
        const logged = gateway
          .output()
          .split('\n')
          .flatMap((line) => (line.startsWith('{') ? [JSON.parse(line) as { msg?: string }] : []))
          .flatMap(({ msg }) =>
            msg?.startsWith('config warning: ') ? [msg.slice('config warning: '.length).replace(/^\/\S+?:\d+:\d+: /, '')] : [],
          );
        // A file whose every setting clawgate implements has none (09); the two lists agree either way.
        expect([...new Set(served)].sort()).toEqual([...new Set(logged)].sort());
        warnings = served.length;

        stage = 'message';
        const expectedDefault = defaultAgentId(doc);
        const res = await fetch(`${gateway.url}/channels/http/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${copy.httpToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ peer: { kind: 'direct', id: 'corpus-user' }, text: `hello from ${name}` }),
        });
        const answer = (await res.json()) as { status: string; agentId: string; reply?: string; error?: unknown };
        const chain = modelChain(doc, expectedDefault);
        if (!chain.some((ref) => ref.startsWith('echo/') || copy.faked.has(ref.slice(0, ref.indexOf('/'))))) {
          // Every model of the default agent is on an API clawgate does not speak (OpenClaw's openai-codex, google,
          // amazon-bedrock, …): the run fails, naming the provider, and the gateway goes on.
          expect({ http: res.status, status: answer.status, agentId: answer.agentId }).toEqual({
            http: 200,
            status: 'failed',
            agentId: expectedDefault,
          });
          // The provider's name may be masked: a key such as "lmstudio" is a secret, and secrets never reach a response.
          expect(String(answer.error)).toMatch(/unknown model provider|which clawgate does not speak/);
          unanswered = `its default agent's models (${chain.join(', ')}) are on APIs clawgate does not speak: ${String(answer.error)}`;
        } else {
          expect({ http: res.status, status: answer.status, agentId: answer.agentId, error: answer.error }).toEqual({
            http: 200,
            status: 'completed',
            agentId: expectedDefault,
            error: undefined,
          });
          // A file that names no model gets clawgate's offline default, echo (OpenClaw's is a paid Anthropic model).
          if (chain[0].startsWith('echo/')) expect(answer.reply).toBe(`[${expectedDefault}] hello from ${name}`);
          else expect(answer.reply).toMatch(/^corpus reply from /);
        }

        stage = 'routes';
        const resolved = await adminJson(gateway.url, copy.adminToken, '/admin/routing/resolve', {
          channel: 'http',
          peer: { kind: 'direct', id: 'corpus-user' },
        });
        expect(resolved.agentId).toBe(expectedDefault);
        for (const binding of routingBindings(doc)) {
          const msg = messageFor(binding.match);
          const route = await adminJson(gateway.url, copy.adminToken, '/admin/routing/resolve', msg);
          expect({ binding: binding.index, msg, agentId: route.agentId }).toEqual({
            binding: binding.index,
            msg,
            agentId: openClawAgentFor(doc, msg),
          });
        }

        stage = 'workspaces';
        const agents = (await adminJson(gateway.url, copy.adminToken, '/admin/agents')) as Array<{
          id: string;
          isDefault: boolean;
          workspace: string;
        }>;
        expect(agents.find((a) => a.isDefault)?.id).toBe(expectedDefault);
        for (const agent of agents) {
          const expected = configuredWorkspace(doc, agent.id, home, openclawDir, env);
          if (expected) expect({ agent: agent.id, workspace: agent.workspace }).toEqual({ agent: agent.id, workspace: expected });
        }
      } catch (err) {
        await gateway.stop();
        throw new Error(`${stage}: ${(err as Error).message}\ngateway output:\n${gateway.output()}`);
      }
      stage = 'stop';
      expect(await gateway.stop()).toBe(true);

      stage = "OpenClaw's files";
      expect(await snapshotTree(openclawDir)).toEqual(before);
      const after = `${doctored ? ` (after \`clawgate doctor --fix\` removed ${doctored} unknown keys)` : ''}, ${warnings} warnings`;
      outcomes.push(unanswered ? `no model    ${name}${after}: ${unanswered}` : `runs        ${name}${after}`);
    } catch (err) {
      outcomes.push(
        `${stage.padEnd(11)} ${name}: ${String((err as Error).message)
          .split('\n')[0]
          .slice(0, 200)}`,
      );
      throw err;
    } finally {
      await fs.rm(home, { recursive: true, force: true });
    }
  });
});
