import type { A2aWireVersion } from '../../../common/a2a-protocol';

/** The normalized channels of the core: `channels.a2a` and `channels.http`. */

export interface A2aPeerSettings {
  name: string;
  /** Undefined when its ${VAR} was unset: the peer cannot authenticate until it is. */
  token?: string;
  url?: string;
  outboundToken?: string;
  /** The A2A version outbound calls to this peer speak. */
  protocolVersion: A2aWireVersion;
  /** URL patterns the peer's push notification configs must match; empty: push refused for this peer. */
  pushUrls: string[];
  /** Whether the budget this peer's messages carry limits its tasks (docs/usage.md#across-gateways). */
  trustBudget: boolean;
  usable: boolean;
}

export interface A2aChannelSettings {
  enabled: boolean;
  advertisedUrl?: string;
  replyTimeoutMs: number;
  /** How long a run's request_input waits for the peer's answer. */
  inputTimeoutMs: number;
  rateLimitPerMinute: number;
  /** Finished tasks the task store keeps per peer; read at each write, so a reload applies to the next one. */
  keptTasksPerPeer: number;
  /** Null = all agents. */
  exposeAgents: string[] | null;
  peers: Record<string, A2aPeerSettings>;
  files: A2aFilePolicy;
}

/** What peers may attach to a message (docs/a2a.md#files). */
export interface A2aFilePolicy {
  /** Most decoded bytes of all raw parts of one message. */
  maxBytes: number;
  /** Accepted media ranges, lowercase: `type/subtype`, `type/*`, or an asterisk on both sides (any type). */
  mediaTypes: string[];
}

export interface HttpChannelSettings {
  enabled: boolean;
  accounts: Record<string, { id: string; token?: string; webhookUrl?: string; usable: boolean }>;
}
