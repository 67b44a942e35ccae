/**
 * The rate-limit slots a replica took from a shared window ahead of need and spends without asking Redis
 * (docs/decisions.md#cluster: rate-limit slots in blocks). A block is spendable for SLOT_HOLD_MS from the moment it
 * was asked for — the shared window counts it from that moment plus SLOT_HOLD_MS, so no slot is spent after the
 * window stopped counting it — and whatever is left then is given back at once.
 *
 * The block size adapts per key: it doubles each time a block is spent before its time is up and halves each time
 * one is given back, up to MAX_BLOCK and to a LIMIT_SHARE-th of the limit (a limit under LIMIT_SHARE is never taken
 * ahead: every request asks the shared window, exactly as before).
 */
export const SLOT_HOLD_MS = 1_000;
const MAX_BLOCK = 100;
const LIMIT_SHARE = 20;

interface Block {
  /** Slots held (their members in the shared window), spent from the end. */
  members: string[];
  /** Spendable until then (this process's clock). */
  until: number;
  timer?: NodeJS.Timeout;
  /** How many to ask for ahead the next time. */
  size: number;
  /** The last block was spent before its time was up. */
  spentOut: boolean;
  /** When the shared window was last asked. */
  lastAskAt: number;
  /** A request ahead is on its way: the others ask only for what they need meanwhile. */
  askedAt?: number;
}

export class LocalSlotBlocks {
  private readonly blocks = new Map<string, Block>();

  constructor(
    private readonly giveBack: (key: string, members: string[]) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Spends up to `count` held slots of `key`; answers how many. */
  spend(key: string, count: number): number {
    const block = this.blocks.get(key);
    if (!block || block.members.length === 0) return 0;
    if (this.now() >= block.until) {
      this.expire(key, block);
      return 0;
    }
    const spent = Math.min(count, block.members.length);
    block.members.length -= spent;
    if (block.members.length === 0) {
      clearTimeout(block.timer);
      block.spentOut = true;
    }
    return spent;
  }

  /** How many slots to ask for ahead with the next request to the shared window (0 while one such is on its way). */
  wanted(key: string, limit: number): number {
    const cap = Math.min(MAX_BLOCK, Math.floor(limit / LIMIT_SHARE));
    let block = this.blocks.get(key);
    if (cap === 0 || block?.askedAt !== undefined) return 0;
    const now = this.now();
    block ??= { members: [], until: 0, size: 0, spentOut: false, lastAskAt: -Infinity };
    this.blocks.set(key, block);
    // Grows while blocks run out in time, or while a key with none asks more than once per hold; a key asked
    // more rarely than that takes nothing ahead (it would only be given back).
    if (block.spentOut || (block.size === 0 && now - block.lastAskAt < SLOT_HOLD_MS)) block.size = Math.max(1, block.size * 2);
    block.size = Math.min(cap, block.size);
    block.spentOut = false;
    block.lastAskAt = now;
    if (block.size === 0) return 0;
    block.askedAt = now;
    return block.size;
  }

  /** The answer to the request `wanted` was asked for: the slots granted ahead (none when it failed or was refused). */
  settle(key: string, members: string[]): void {
    const block = this.blocks.get(key);
    if (!block || block.askedAt === undefined) {
      if (members.length) this.giveBack(key, members);
      return;
    }
    const askedAt = block.askedAt;
    block.askedAt = undefined;
    if (!members.length) return;
    if (block.members.length) this.giveBack(key, block.members);
    clearTimeout(block.timer);
    block.members = members;
    block.until = askedAt + SLOT_HOLD_MS;
    block.timer = setTimeout(() => this.expire(key, block), Math.max(0, block.until - this.now()));
    block.timer.unref();
  }

  forget(key: string): void {
    const block = this.blocks.get(key);
    if (!block) return;
    clearTimeout(block.timer);
    this.blocks.delete(key);
    if (block.members.length) this.giveBack(key, block.members);
  }

  private expire(key: string, block: Block): void {
    clearTimeout(block.timer);
    if (!block.members.length) return;
    this.giveBack(key, block.members);
    block.members = [];
    block.size = Math.floor(block.size / 2);
  }
}
