/**
 * `clawgate` used as a library: start a gateway from code, with plugins given in code (docs/plugins.md#use-as-a-library).
 * Only what is exported here (and from `clawgate/plugin-sdk`) is the package's public surface.
 */
import 'reflect-metadata';
import { startGateway as startGatewayProcess, type RunningGateway } from './bootstrap';
import { locateConfig } from './modules/config';
import type { CodePlugin } from './plugin-sdk';

export * from './plugin-sdk';

/** A gateway started from code. */
export interface Gateway {
  /** e.g. `http://127.0.0.1:18789` */
  url: string;
  port: number;
  /** Stops it: runs drain, plugins' services stop, the state dir is let go. */
  close(): Promise<void>;
}

export interface StartGatewayOptions {
  /** openclaw.json; default: as the CLI finds it (`$OPENCLAW_CONFIG_PATH`, `<stateDir>/openclaw.json`, `~/.openclaw/openclaw.json`). */
  configPath?: string;
  /** The state directory; default: `$OPENCLAW_STATE_DIR`, then `~/.clawgate`. */
  stateDir?: string;
  /** Listen on this port instead of `gateway.port` (0: any free port). */
  port?: number;
  /** The environment `${VAR}` references read; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** `auto`, `pretty` or `json`; `error`…`trace`: as the CLI's `--log-format` and `--log-level`. */
  logFormat?: string;
  logLevel?: string;
  /** Plugins given in code, loaded as enabled plugins (`definePlugin({ id, register(api) { … } })`). */
  plugins?: readonly CodePlugin[];
}

/**
 * Starts a gateway in this process, as `clawgate gateway` does: it rejects when the config is invalid
 * (`ConfigLoadError`, naming file:line) or the state dir is held by another gateway.
 */
export async function startGateway(options: StartGatewayOptions = {}): Promise<Gateway> {
  const env = options.env ?? process.env;
  const located = locateConfig({ cliConfig: options.configPath, cliStateDir: options.stateDir, env });
  const running: RunningGateway = await startGatewayProcess({
    configPath: located.configPath,
    stateDir: located.stateDir,
    portOverride: options.port,
    env,
    logFormat: options.logFormat,
    logLevel: options.logLevel,
    plugins: options.plugins,
  });
  return { url: running.url, port: running.port, close: () => running.close() };
}
