import type { SandboxMode } from '../config';
import type { ParsedSessionKey } from './session-key';

/**
 * Whether a session runs sandboxed under its agent's `sandbox.mode`: `all` every session, `non-main` every one but
 * the agent's main session (OpenClaw's rule: direct, group, thread and spawned sessions are sandboxed), `off` none.
 * The one definition: session visibility (session-policy) and the tools a run is offered (runtime) both ask it.
 */
export function isSandboxedSession(mode: SandboxMode | undefined, session: ParsedSessionKey, mainKey: string): boolean {
  if (mode === 'all') return true;
  if (mode !== 'non-main') return false;
  const main = session.kind === 'main' && session.threadId === undefined && session.mainKey === mainKey;
  return !main;
}
