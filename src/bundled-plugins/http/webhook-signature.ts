import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures of the http channel (docs/channels.md#verifying-the-signature), for the gateway and for integrators.
 *
 * Every delivery POSTed to an account's `webhookUrl` carries
 *
 *     X-Clawgate-Signature: sha256=<hex>
 *
 * where `<hex>` is the lowercase hex HMAC-SHA256 of the exact request body bytes (UTF-8 JSON, as sent),
 * keyed by the account's token (its UTF-8 bytes). Verify over the raw body before parsing it: re-serializing
 * parsed JSON may change the bytes. The body's `ts` is signed too, so a receiver can refuse old replays.
 */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Clawgate-Signature';
const PREFIX = 'sha256=';
const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/** The full header value (`sha256=<hex>`) for `body` signed with `token`. */
export function signWebhookBody(body: string | Uint8Array, token: string): string {
  return PREFIX + createHmac('sha256', token).update(body).digest('hex');
}

/**
 * True when `header` is a well-formed `sha256=<64 hex>` value matching `body` under `token`. Malformed or
 * missing headers are false, never an exception; the comparison is constant-time.
 */
export function verifyWebhookSignature(body: string | Uint8Array, header: string | undefined | null, token: string): boolean {
  if (typeof header !== 'string' || !token) return false;
  const value = header.trim();
  if (!value.toLowerCase().startsWith(PREFIX)) return false;
  const hex = value.slice(PREFIX.length);
  if (!HEX_SHA256.test(hex)) return false;
  const expected = createHmac('sha256', token).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(hex, 'hex'));
}
