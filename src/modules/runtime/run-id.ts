import { randomUUID } from 'node:crypto';

/** Run ids are random UUIDs, written in lowercase. */
const RUN_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function newRunId(): string {
  return randomUUID();
}

/**
 * The run id a caller typed (a URL path, a tool argument) in the form the runtime keys runs by, or undefined
 * when it cannot be one. Case does not matter; surrounding text does.
 */
export function parseRunId(raw: string): string | undefined {
  const id = raw.toLowerCase();
  return RUN_ID_PATTERN.test(id) ? id : undefined;
}

/** What a caller is told when `parseRunId` refused its text. */
export function notARunIdMessage(raw: string): string {
  const shown = raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
  return `${JSON.stringify(shown)} is not a run id (expected a UUID such as 0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b, the runId of a sessions_send or sessions_spawn result)`;
}
