/** How sessions are keyed (`session.dmScope`) and which of them a session may see (`tools.sessions.visibility`). */

export type SessionVisibility = 'self' | 'tree' | 'agent' | 'all';
export type DmScope = 'main' | 'per-peer' | 'per-channel-peer' | 'per-account-channel-peer';
