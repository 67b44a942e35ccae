import { CliRun, runCli, transpileCli } from '../fixtures/cli-runner';
import { FakeOpenAiServer } from './fake-openai-server';
import { startTestGateway, TestGateway } from './gateway-harness';

/** Each CLI run is a process start (about a second; several on a loaded machine). */
export const CLI_TEST_TIMEOUT = 180_000;

/**
 * A running gateway whose agents call a fake OpenAI-compatible model, and the transpiled `clawgate` CLI to run
 * against its admin API as a separate process: the set-up of the specs of the CLI's remote commands.
 */
export interface CliGateway {
  gw: TestGateway;
  model: FakeOpenAiServer;
  /** Runs the CLI with the gateway's URL and `token` set; `env` adds to or overrides them. */
  cli(args: string[], env?: NodeJS.ProcessEnv): Promise<CliRun>;
  stop(): Promise<void>;
}

export interface CliGatewayOptions {
  /** The admin token the CLI sends (CLAWGATE_TOKEN) unless a call's `env` says otherwise. */
  token: string;
  /** Scripts the fake model before the gateway starts. */
  scriptModel(model: FakeOpenAiServer): void;
  /** The gateway's openclaw.json, given the fake model's base URL. */
  config(modelBaseUrl: string): string;
}

export async function startCliGateway(options: CliGatewayOptions): Promise<CliGateway> {
  const model = await new FakeOpenAiServer().start();
  const boot = async (): Promise<TestGateway> => {
    options.scriptModel(model);
    return startTestGateway(options.config(model.baseUrl));
  };
  // The transpile and the gateway's start take seconds each: side by side, and what did start is stopped on a failure.
  const [built, booted] = await Promise.allSettled([transpileCli(), boot()]);
  if (built.status === 'rejected' || booted.status === 'rejected') {
    await Promise.all([built.status === 'fulfilled' && built.value.remove(), booted.status === 'fulfilled' && booted.value.stop()]);
    await model.close();
    throw built.status === 'rejected' ? built.reason : (booted as PromiseRejectedResult).reason;
  }
  const [build, gw] = [built.value, booted.value];
  return {
    gw,
    model,
    cli: (args, env = {}) => runCli(build.cliJs, args, { HOME: gw.dir, CLAWGATE_URL: gw.url, CLAWGATE_TOKEN: options.token, ...env }),
    stop: async () => {
      await Promise.all([build.remove(), gw.stop()]);
      await model.close();
    },
  };
}
