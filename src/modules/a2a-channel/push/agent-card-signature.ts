import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { canonicalize } from 'json-canonicalize';
import { cardEtag, type RenderedCard } from '../card/agent-card';
import type { AgentCardSignature } from '../card/agent-card.types';
import { PUSH_SIGNING_KEY } from './push-deliverer';
import { PUSH_JWKS_PATH, type PushSigningKey } from './push-signing-key';

/** `typ` of the protected header, as the specification recommends for card signatures. */
const CARD_SIGNATURE_TYPE = 'JOSE';
/** Signatures kept per signed content; past this the table starts over (only a re-sign is lost). */
const MAX_KEPT_SIGNATURES = 256;

/** What a card's signature covers: the card without `signatures`, canonicalized by JCS (RFC 8785). */
export function cardSigningInput(card: object): string {
  const { signatures: _signatures, ...content } = card as { signatures?: unknown };
  return canonicalize(content);
}

/**
 * Signs the Agent Cards (docs/a2a.md#signed-cards) — the public card in both forms and each peer's extended card —
 * with the push signing key: a client that has no token yet can check the card came from this gateway, unchanged,
 * against the key set at PUSH_JWKS_PATH (the `jku` of each signature). One signature per card content: ES256
 * signatures differ each time they are made, so a reload that leaves a card alone must find the old one (its bytes,
 * ETag and Last-Modified stay), and the public card endpoint, which is hot, never signs per request.
 */
@Injectable()
export class AgentCardSigner {
  private readonly logger = new Logger('a2a');
  /** By the digest of what is signed (the key set URL and the canonical card). */
  private readonly signatures = new Map<string, Promise<AgentCardSignature>>();
  /** The signed rendering of each rendered card object (those are cached per config snapshot and origin). */
  private readonly signedRenderings = new WeakMap<RenderedCard, Promise<RenderedCard>>();

  constructor(@Inject(PUSH_SIGNING_KEY) private readonly key: Pick<PushSigningKey, 'signDetached'>) {}

  /**
   * The card with its signature in `signatures`. When the key cannot be had (its file unreadable, the database
   * down) the card goes out unsigned, which a verifying client refuses, rather than not at all; the log says why.
   */
  async sign<T extends object>(card: T, origin: string): Promise<T & { signatures?: AgentCardSignature[] }> {
    try {
      return { ...card, signatures: [await this.signatureOf(cardSigningInput(card), origin)] };
    } catch (err) {
      this.logger.error(`the Agent Card is served unsigned: it could not be signed: ${(err as Error).message}`);
      return card;
    }
  }

  /** A rendered public card (body and ETag), signed; the same object again answers from memory. */
  signedRendering(unsigned: RenderedCard, origin: string): Promise<RenderedCard> {
    let signed = this.signedRenderings.get(unsigned);
    if (!signed) {
      signed = this.sign(JSON.parse(unsigned.body) as object, origin).then((card) => {
        const body = JSON.stringify(card);
        // Unsigned for now: try again on the next request instead of keeping it for the snapshot's life.
        if (!('signatures' in card)) this.signedRenderings.delete(unsigned);
        return { body, etag: cardEtag(body) };
      });
      this.signedRenderings.set(unsigned, signed);
    }
    return signed;
  }

  private signatureOf(payload: string, origin: string): Promise<AgentCardSignature> {
    const jku = `${origin}${PUSH_JWKS_PATH}`;
    const id = createHash('sha256').update(jku).update('\n').update(payload).digest('base64url');
    let signature = this.signatures.get(id);
    if (!signature) {
      signature = this.key.signDetached(payload, { typ: CARD_SIGNATURE_TYPE, jku });
      signature.catch(() => this.signatures.delete(id));
      if (this.signatures.size >= MAX_KEPT_SIGNATURES) this.signatures.clear();
      this.signatures.set(id, signature);
    }
    return signature;
  }
}
