import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../../common/fs/atomic-write';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../../common/fs/private-files';
import { newPairingCode } from './pairing-code';

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

interface ChannelFile {
  pending: PairingRequest[];
  approved: ApprovedSender[];
}

export type PairingAsk =
  { kind: 'code'; request: PairingRequest; fresh: boolean } | { kind: 'full'; pending: number } | { kind: 'approved' };

/**
 * Who paired with each chat channel (docs/channels.md#pairing): `<stateDir>/pairing/<channel>.json` (0600, in a 0700
 * directory), written atomically after every change, read once per channel and then kept in memory (the gateway is
 * the file's only writer; the CLI goes through the admin API). Pending codes expire after an hour; approved senders
 * stay until the file is edited. With `gateway.state` on PostgreSQL each replica still keeps its own file.
 */
export class PairingStore {
  private readonly files = new Map<string, ChannelFile>();
  /** Writes of one channel, one after the other. */
  private readonly writes = new Map<string, Promise<void>>();

  constructor(
    private readonly stateDir: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Approval is per bot account, as OpenClaw scopes it (docs/channels/pairing.md: each account its own allowlist):
   * a sender approved on one bot does not pass on another, which may route to another agent.
   */
  async isApproved(channel: string, accountId: string, senderId: string): Promise<boolean> {
    return (await this.read(channel)).approved.some((a) => a.senderId === senderId && a.accountId === accountId);
  }

  /**
   * An unknown sender asks: the code it already has (still valid), a new one, or `full` when the channel has its
   * maximum of pending codes.
   */
  async ask(channel: string, accountId: string, sender: { id: string; name?: string }): Promise<PairingAsk> {
    const file = await this.read(channel);
    if (file.approved.some((a) => a.senderId === sender.id && a.accountId === accountId)) return { kind: 'approved' };
    const pruned = this.prune(file);
    const existing = file.pending.find((p) => p.senderId === sender.id && p.accountId === accountId);
    if (existing) {
      if (pruned) await this.write(channel);
      return { kind: 'code', request: existing, fresh: false };
    }
    if (file.pending.length >= MAX_PENDING_PER_CHANNEL) {
      if (pruned) await this.write(channel);
      return { kind: 'full', pending: file.pending.length };
    }
    let code = newPairingCode();
    while (file.pending.some((p) => p.code === code)) code = newPairingCode();
    const created = this.now();
    const request: PairingRequest = {
      code,
      channel,
      accountId,
      senderId: sender.id,
      ...(sender.name ? { senderName: sender.name } : {}),
      createdAt: new Date(created).toISOString(),
      expiresAt: new Date(created + PAIRING_CODE_TTL_MS).toISOString(),
    };
    file.pending.push(request);
    await this.write(channel);
    return { kind: 'code', request, fresh: true };
  }

  /** Pending (unexpired) requests and approved senders of the channels given, or of every channel with a file. */
  async list(channels?: readonly string[]): Promise<Array<{ channel: string; pending: PairingRequest[]; approved: ApprovedSender[] }>> {
    const ids = channels ?? (await this.channelsOnDisk());
    const out = [];
    for (const channel of ids) {
      const file = await this.read(channel);
      if (this.prune(file)) await this.write(channel);
      out.push({ channel, pending: [...file.pending], approved: [...file.approved] });
    }
    return out;
  }

  /** Approves the pending code: its sender passes the `pairing` policy from the next message on. */
  async approve(channel: string, code: string): Promise<ApprovedSender | undefined> {
    const file = await this.read(channel);
    this.prune(file);
    const request = file.pending.find((p) => p.code === code);
    if (!request) return undefined;
    file.pending = file.pending.filter((p) => p !== request);
    const approved: ApprovedSender = {
      senderId: request.senderId,
      ...(request.senderName ? { senderName: request.senderName } : {}),
      accountId: request.accountId,
      approvedAt: new Date(this.now()).toISOString(),
    };
    file.approved = [...file.approved.filter((a) => !(a.senderId === request.senderId && a.accountId === request.accountId)), approved];
    await this.write(channel);
    return approved;
  }

  /** Drops the pending code; its sender may ask again (and get a new code). */
  async deny(channel: string, code: string): Promise<PairingRequest | undefined> {
    const file = await this.read(channel);
    this.prune(file);
    const request = file.pending.find((p) => p.code === code);
    if (!request) return undefined;
    file.pending = file.pending.filter((p) => p !== request);
    await this.write(channel);
    return request;
  }

  private dir(): string {
    return path.join(this.stateDir, 'pairing');
  }

  private fileOf(channel: string): string {
    return path.join(this.dir(), `${channel}.json`);
  }

  /** Removes expired codes; true when it removed one. */
  private prune(file: ChannelFile): boolean {
    const now = this.now();
    const before = file.pending.length;
    file.pending = file.pending.filter((p) => Date.parse(p.expiresAt) > now);
    return file.pending.length !== before;
  }

  private async read(channel: string): Promise<ChannelFile> {
    const cached = this.files.get(channel);
    if (cached) return cached;
    let file: ChannelFile = { pending: [], approved: [] };
    try {
      const parsed = JSON.parse(await fs.readFile(this.fileOf(channel), 'utf8')) as Partial<ChannelFile>;
      file = {
        pending: Array.isArray(parsed.pending) ? parsed.pending : [],
        approved: Array.isArray(parsed.approved) ? parsed.approved : [],
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new Error(`cannot read ${this.fileOf(channel)}: ${(err as Error).message}`);
    }
    // Another read may have finished first: keep one object per channel.
    const raced = this.files.get(channel);
    if (raced) return raced;
    this.files.set(channel, file);
    return file;
  }

  private write(channel: string): Promise<void> {
    const previous = this.writes.get(channel) ?? Promise.resolve();
    const next = previous.then(async () => {
      await fs.mkdir(this.dir(), { recursive: true, mode: PRIVATE_DIR_MODE });
      const file = this.files.get(channel) ?? { pending: [], approved: [] };
      await writeFileAtomic(this.fileOf(channel), `${JSON.stringify(file, null, 2)}\n`, { newFileMode: PRIVATE_FILE_MODE });
    });
    this.writes.set(
      channel,
      next.catch(() => undefined),
    );
    return next;
  }

  private async channelsOnDisk(): Promise<string[]> {
    const names = await fs.readdir(this.dir()).catch(() => [] as string[]);
    const onDisk = names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).map((n) => n.slice(0, -'.json'.length));
    return [...new Set([...onDisk, ...this.files.keys()])].sort();
  }
}
