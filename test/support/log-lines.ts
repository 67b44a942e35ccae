import type { LogTarget } from '../../src/common/logging/log-settings';

/** A log target that keeps what the gateway writes (hand it to startTestGateway's `log.logTarget`). */
export class LogLines implements LogTarget {
  private readonly chunks: string[] = [];
  constructor(readonly isTTY = false) {}

  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return true;
  }

  /** Every line written so far. */
  get lines(): string[] {
    return this.chunks.join('').split('\n').filter(Boolean);
  }

  /** The `msg` of every line, for a gateway logging JSON. */
  get messages(): string[] {
    return this.lines.map((line) => (JSON.parse(line) as { msg?: string }).msg ?? '');
  }
}
