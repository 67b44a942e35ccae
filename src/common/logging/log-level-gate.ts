import { LOG_LEVELS, type LogLevel } from './log-settings';

/**
 * The level the gateway's logger was started with, for call sites that would build a line per message: below the
 * level, a line is dropped by the logger anyway, so they skip building it. Set when the logging module is made (one
 * gateway per process at a time, as for the logger itself); `info` until then.
 */
let threshold = LOG_LEVELS.indexOf('info');

export function setLogThreshold(level: LogLevel): void {
  threshold = LOG_LEVELS.indexOf(level);
}

/** True when a line at `level` is written (never at `silent`). */
export function logsAt(level: Exclude<LogLevel, 'silent'>): boolean {
  return LOG_LEVELS.indexOf(level) >= threshold;
}
