import type { Embedder } from './embedder.port';

export interface EmbedItem {
  hash: string;
  text: string;
}

/**
 * Makes sure a chunk text is embedded once per embedder however many agents index it at the same time.
 * Every agent's index shares the vector cache, but two agents granted the same directory sync and embed in
 * parallel: each would find the same chunks pending and embed them. Here a text already being embedded
 * for one agent is awaited by the others, and a text whose vector was stored meanwhile is skipped. The
 * check and the registration happen in one synchronous step, so no interleaving can embed a text twice.
 */
export class SharedEmbeddings {
  private readonly inFlight = new Map<string, Promise<Float32Array>>();
  /** Texts this process sent to an embedder (the ones served from the cache or another caller not counted). */
  private embeddedTexts = 0;
  /** Chunk texts embedded successfully, by embedder kind (the fingerprint's first part: bundled, bundled-static, openai). */
  private readonly byEmbedder = new Map<string, number>();

  get embedded(): number {
    return this.embeddedTexts;
  }

  /** Chunk texts embedded since start, by embedder kind; a text several agents share counts once. */
  embeddedByEmbedder(): ReadonlyMap<string, number> {
    return this.byEmbedder;
  }

  /**
   * Vectors for the items, by hash, for the ones that still need storing: items `isStored` reports already
   * in the cache are left out (nothing to store).
   */
  async embed(
    embedder: Embedder,
    items: readonly EmbedItem[],
    isStored: (hashes: string[]) => Set<string>,
  ): Promise<Map<string, Float32Array>> {
    const stored = isStored(items.map((i) => i.hash));
    const waits = new Map<string, Promise<Float32Array>>();
    const fresh: EmbedItem[] = [];
    for (const item of items) {
      if (waits.has(item.hash) || stored.has(item.hash)) continue;
      const running = this.inFlight.get(this.key(embedder, item.hash));
      if (running) waits.set(item.hash, running);
      else fresh.push(item);
    }
    if (fresh.length) {
      const batch = embedder.embed(fresh.map((i) => i.text));
      this.embeddedTexts += fresh.length;
      const kind = embedder.fingerprint.split(':')[0];
      batch.then(
        () => this.byEmbedder.set(kind, (this.byEmbedder.get(kind) ?? 0) + fresh.length),
        () => undefined,
      );
      fresh.forEach((item, i) => {
        const key = this.key(embedder, item.hash);
        const one = batch.then((vectors) => vectors[i]);
        one.catch(() => undefined); // a caller that joined handles the error; no unhandled rejection here
        this.inFlight.set(key, one);
        waits.set(item.hash, one);
        void one.finally(() => this.inFlight.delete(key)).catch(() => undefined);
      });
    }
    const out = new Map<string, Float32Array>();
    for (const [hash, wait] of waits) out.set(hash, await wait);
    return out;
  }

  private key(embedder: Embedder, hash: string): string {
    return `${embedder.fingerprint}\0${hash}`;
  }
}
