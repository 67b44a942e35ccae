import type { DestinationStream } from 'pino';
import { maskSecrets } from './secret-mask';

/**
 * The pino destination of the gateway: stdout, with every configured secret value masked. Working on the
 * serialized line (not on fields) catches a secret wherever it sits: message text, error stacks, nested
 * objects — places redact paths cannot name in advance.
 */
export function maskingDestination(target: { write(chunk: string): unknown } = process.stdout): DestinationStream {
  return { write: (line: string) => void target.write(maskSecrets(line)) };
}
