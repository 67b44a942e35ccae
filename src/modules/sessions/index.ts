export {
  agentIdFromSessionKey,
  directSessionKey,
  groupSessionKey,
  isValidSessionKey,
  mainSessionKey,
  parseSessionKey,
  subagentSessionKey,
  type ParsedSessionKey,
} from './session-key';
export { isSandboxedSession } from './sandboxed-session';
export { canonicalSessionKey, type CanonicalKey } from './session-input';
export { SESSION_STORE } from './session-store.port';
export type {
  DeliveryContext,
  InterSessionProvenance,
  SessionCreateOptions,
  SessionEntry,
  SessionStore,
  TranscriptAppended,
  TranscriptLine,
  TranscriptVersion,
} from './session-store.port';
export { SessionsModule } from './sessions.module';
export { openSessionExport } from './session-export';
