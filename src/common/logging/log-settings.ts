/**
 * How the gateway writes its log lines (docs/operations.md#logs): `json` (one JSON object a line, for log
 * shippers) or `pretty` (one readable line per event, for a person at a terminal). `auto`, the default, is pretty
 * when stdout is a TTY and JSON otherwise. Read from the command line (`--log-format`, `--log-level`) or the
 * environment (`CLAWGATE_LOG_FORMAT`, `CLAWGATE_LOG_LEVEL`), never from openclaw.json: the logger exists before
 * the config is read, so it can report what is wrong with the config (docs/decisions.md).
 */
export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogFormat = 'pretty' | 'json';
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Where the lines go: stdout, or a stream a test hands in. `isTTY` decides `auto`. */
export interface LogTarget {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

export interface LogSettings {
  format: LogFormat;
  level: LogLevel;
  target: LogTarget;
}

/** A setting given a value it does not take; the message names the setting (flag or variable) and the choices. */
export class LogSettingsError extends Error {}

/** A raw setting and where it came from (`--log-format`, `CLAWGATE_LOG_FORMAT`), for the error message. */
export interface SettingInput {
  value: string | undefined;
  from: string;
}

export function resolveLogSettings(input: { format?: SettingInput; level?: SettingInput; target?: LogTarget }): LogSettings {
  const target = input.target ?? process.stdout;
  const format = oneOf(input.format, LOG_FORMATS, 'auto');
  const level = oneOf(input.level, LOG_LEVELS, 'info');
  return { format: format === 'auto' ? (target.isTTY ? 'pretty' : 'json') : format, level, target };
}

/**
 * The settings of a gateway process: a flag wins over its variable; `env` first (the options the gateway was
 * started with), then the process environment.
 */
export function logSettingsFrom(
  options: { logFormat?: string; logLevel?: string; logTarget?: LogTarget; env?: NodeJS.ProcessEnv },
  processEnv: NodeJS.ProcessEnv = process.env,
): LogSettings {
  const pick = (flag: string | undefined, flagName: string, variable: string): SettingInput =>
    flag !== undefined ? { value: flag, from: flagName } : { value: options.env?.[variable] ?? processEnv[variable], from: variable };
  return resolveLogSettings({
    format: pick(options.logFormat, '--log-format', 'CLAWGATE_LOG_FORMAT'),
    level: pick(options.logLevel, '--log-level', 'CLAWGATE_LOG_LEVEL'),
    target: options.logTarget,
  });
}

function oneOf<T extends string>(input: SettingInput | undefined, choices: readonly T[], fallback: T): T {
  const raw = input?.value;
  if (raw === undefined || raw === '') return fallback;
  const value = raw.trim().toLowerCase();
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new LogSettingsError(`${input!.from}: must be one of ${choices.join(', ')} (got ${JSON.stringify(raw)})`);
}
