/** How long a pairing code may be approved [1 hour]. */
export const PAIRING_CODE_TTL_MS = 60 * 60 * 1000;
/** Codes waiting per channel [3]: a 4th unknown sender is ignored until one is approved, denied or expires. */
export const MAX_PENDING_PER_CHANNEL = 3;

export interface PairingRequest {
  code: string;
  channel: string;
  accountId: string;
  senderId: string;
  senderName?: string;
  createdAt: string;
  expiresAt: string;
}

export interface ApprovedSender {
  senderId: string;
  senderName?: string;
  accountId: string;
  approvedAt: string;
}

export type PairingAsk =
  { kind: 'code'; request: PairingRequest; fresh: boolean } | { kind: 'full'; pending: number } | { kind: 'approved' };

/** Who paired with each chat channel (docs/channels.md#pairing): the state dir's files, or PostgreSQL's tables. */
export interface PairingStore {
  /**
   * Approval is per bot account, as OpenClaw scopes it (docs/channels/pairing.md: each account its own allowlist):
   * a sender approved on one bot does not pass on another, which may route to another agent.
   */
  isApproved(channel: string, accountId: string, senderId: string): Promise<boolean>;
  /**
   * An unknown sender asks: the code it already has (still valid), a new one, or `full` when the channel has its
   * maximum of pending codes.
   */
  ask(channel: string, accountId: string, sender: { id: string; name?: string }): Promise<PairingAsk>;
  /** Pending (unexpired) requests and approved senders of the channels given, or of every channel the store knows. */
  list(channels?: readonly string[]): Promise<ChannelPairing[]>;
  /** Approves the pending code: its sender passes the `pairing` policy from the next message on. */
  approve(channel: string, code: string): Promise<ApprovedSender | undefined>;
  /** Drops the pending code; its sender may ask again (and get a new code). */
  deny(channel: string, code: string): Promise<PairingRequest | undefined>;
  /** Waits for the writes under way, then lets go of the files or the connections. */
  close(): Promise<void>;
}

export interface ChannelPairing {
  channel: string;
  pending: PairingRequest[];
  approved: ApprovedSender[];
}

export const PAIRING_STORE = Symbol('PAIRING_STORE');
