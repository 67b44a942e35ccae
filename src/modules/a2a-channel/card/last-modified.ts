/**
 * `Last-Modified` of the served Agent Cards (the specification's caching section allows it). A card is rendered per
 * config snapshot, wire version and origin, and a reload that leaves a card's bytes alone must not make it look new
 * (clients would download it again for nothing), so the time is kept per version and origin, with the card's ETag:
 * while the ETag stays, so does the time; when it differs, the card changed with the snapshot now served, whose
 * `loadedAt` is then its time. A card first seen after a reload that did not change it gets that reload's time: a
 * little later than the real change, which costs a client one download and never hides a change.
 */

/** Origins come from Host headers: a bound so odd hosts cannot grow the table (it starts over when full). */
const MAX_TRACKED_CARDS = 128;

export class CardChangeTimes {
  private readonly byCard = new Map<string, { etag: string; changedAt: number }>();

  /** Epoch ms, whole seconds (what an HTTP date can carry, so If-Modified-Since compares exactly). */
  changedAt(cardKey: string, etag: string, snapshotLoadedAt: Date): number {
    const known = this.byCard.get(cardKey);
    if (known?.etag === etag) return known.changedAt;
    const changedAt = Math.floor(snapshotLoadedAt.getTime() / 1000) * 1000;
    if (!known && this.byCard.size >= MAX_TRACKED_CARDS) this.byCard.clear();
    this.byCard.set(cardKey, { etag, changedAt });
    return changedAt;
  }
}

/**
 * True when If-Modified-Since says the client's copy is current: the card has not changed after that date. RFC 9110
 * §13.1.3: a date that does not parse is ignored; the caller evaluates it only without If-None-Match (§13.2.2).
 */
export function notModifiedSince(header: string | undefined, changedAt: number): boolean {
  if (!header) return false;
  const since = Date.parse(header);
  return !Number.isNaN(since) && changedAt <= since;
}
