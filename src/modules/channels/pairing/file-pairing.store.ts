import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../../common/fs/atomic-write';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../../common/fs/private-files';
import { newPairingCode } from './pairing-code';
import {
  MAX_PENDING_PER_CHANNEL,
  PAIRING_CODE_TTL_MS,
  type ApprovedSender,
  type ChannelPairing,
  type PairingAsk,
  type PairingRequest,
  type PairingStore,
} from './pairing-store.port';

interface ChannelFile {
  pending: PairingRequest[];
  approved: ApprovedSender[];
}

/**
 * Who paired with each chat channel (docs/channels.md#pairing): `<stateDir>/pairing/<channel>.json` (0600, in a 0700
 * directory), written atomically after every change, read once per channel and then kept in memory (the gateway is
 * the file's only writer; the CLI goes through the admin API). Pending codes expire after an hour; approved senders
 * stay until the file is edited. With `gateway.state` on PostgreSQL, `PgPairingStore` keeps them instead.
 */
export class FilePairingStore implements PairingStore {
  private readonly files = new Map<string, ChannelFile>();
  /** Writes of one channel, one after the other. */
  private readonly writes = new Map<string, Promise<void>>();

  constructor(
    private readonly stateDir: string,
    private readonly now: () => number = Date.now,
  ) {}

  async isApproved(channel: string, accountId: string, senderId: string): Promise<boolean> {
    return (await this.read(channel)).approved.some((a) => a.senderId === senderId && a.accountId === accountId);
  }

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

  async list(channels?: readonly string[]): Promise<ChannelPairing[]> {
    const ids = channels ?? (await this.channelsOnDisk());
    const out = [];
    for (const channel of ids) {
      const file = await this.read(channel);
      if (this.prune(file)) await this.write(channel);
      out.push({ channel, pending: [...file.pending], approved: [...file.approved] });
    }
    return out;
  }

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

  async close(): Promise<void> {
    await Promise.all(this.writes.values());
  }

  private async channelsOnDisk(): Promise<string[]> {
    const names = await fs.readdir(this.dir()).catch(() => [] as string[]);
    const onDisk = names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).map((n) => n.slice(0, -'.json'.length));
    return [...new Set([...onDisk, ...this.files.keys()])].sort();
  }
}
