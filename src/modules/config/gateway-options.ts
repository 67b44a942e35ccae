import type { LogTarget } from '../../common/logging/log-settings';
import type { CodePlugin } from '../../plugin-sdk';
import * as os from 'node:os';
import * as path from 'node:path';

/** The state dir under the home directory when none is given: clawgate's own, beside OpenClaw's `.openclaw`. */
export const DEFAULT_STATE_DIR_NAME = '.clawgate';

/** Injection token for the options the gateway was started with. */
export const GATEWAY_OPTIONS = Symbol('GATEWAY_OPTIONS');

/** Where the config lives and what the process was told on the command line. Fixed for the process lifetime. */
export interface GatewayOptions {
  configPath: string;
  stateDir: string;
  /** `--port` on the command line: overrides gateway.port (0 = any free port). */
  portOverride?: number;
  env: NodeJS.ProcessEnv;
  /** `--log-format` / `--log-level` on the command line: win over CLAWGATE_LOG_FORMAT / CLAWGATE_LOG_LEVEL. */
  logFormat?: string;
  logLevel?: string;
  /** Where log lines go instead of stdout (a test's stream); its `isTTY` decides the `auto` format. */
  logTarget?: LogTarget;
  /** Plugins given in code (`startGateway` used as a library): loaded like enabled plugins, after those the catalog names. */
  plugins?: readonly CodePlugin[];
}

export interface LocateInput {
  cliConfig?: string;
  cliStateDir?: string;
  env: NodeJS.ProcessEnv;
  homeDir?: string;
  cwd?: string;
}

export interface LocatedConfig {
  configPath: string;
  stateDir: string;
  /** Which rule chose the config path, for the startup log. */
  configSource: 'cli' | 'env' | 'state-dir' | 'home';
}

/**
 * Precedence. Config: `--config` > OPENCLAW_CONFIG_PATH > $OPENCLAW_STATE_DIR/openclaw.json >
 * ~/.openclaw/openclaw.json (`--state-dir` counts like the env var). State dir: `--state-dir` > OPENCLAW_STATE_DIR > ~/.clawgate:
 * never OpenClaw's own ~/.openclaw unless asked for, so pointing clawgate at an OpenClaw install leaves that install as it
 * was (its sessions index is not imported and renamed, nothing is added beside its files).
 * See docs/configuration.md#1-where-the-file-is-found.
 */
export function locateConfig(input: LocateInput): LocatedConfig {
  const home = input.homeDir ?? (input.env.HOME || os.homedir());
  const cwd = input.cwd ?? process.cwd();
  const abs = (p: string) => {
    if (p === '~') return home;
    if (p.startsWith('~/')) return path.join(home, p.slice(2));
    return path.resolve(cwd, p);
  };
  const envStateDir = input.env.OPENCLAW_STATE_DIR?.trim();
  const stateDir = input.cliStateDir ? abs(input.cliStateDir) : envStateDir ? abs(envStateDir) : path.join(home, DEFAULT_STATE_DIR_NAME);
  const envConfig = input.env.OPENCLAW_CONFIG_PATH?.trim();
  if (input.cliConfig) return { configPath: abs(input.cliConfig), stateDir, configSource: 'cli' };
  if (envConfig) return { configPath: abs(envConfig), stateDir, configSource: 'env' };
  // A state dir given on the command line counts like OPENCLAW_STATE_DIR (see docs/decisions.md).
  if (input.cliStateDir || envStateDir) return { configPath: path.join(stateDir, 'openclaw.json'), stateDir, configSource: 'state-dir' };
  return { configPath: path.join(home, '.openclaw', 'openclaw.json'), stateDir, configSource: 'home' };
}
