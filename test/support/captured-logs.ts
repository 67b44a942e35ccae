/**
 * Import this first in a spec that reads the gateway's log lines: the logger takes its level when its module
 * loads, and test/support/jest-env.ts silences it. The lines are then caught on their way to stdout (and kept
 * out of the test output) by `captureLogLines`.
 */
process.env.CLAWGATE_LOG_LEVEL = 'info';

export interface CapturedLogs {
  /** Every JSON log line written since the capture started, parsed. */
  lines: Array<Record<string, unknown>>;
  stop(): void;
}

export function captureLogLines(): CapturedLogs {
  const original = process.stdout.write.bind(process.stdout) as (...args: unknown[]) => boolean;
  const lines: Array<Record<string, unknown>> = [];
  process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (!text.startsWith('{"level"')) return original(chunk, ...rest);
    for (const line of text.split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  };
  return { lines, stop: () => (process.stdout.write = original as typeof process.stdout.write) };
}
