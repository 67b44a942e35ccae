import { signWebhookBody, WEBHOOK_SIGNATURE_HEADER } from './webhook-signature';

/** 10 s keeps a stalled receiver from holding announce deliveries (docs/channels.md#webhook-deliveries). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export type WebhookOutcome = { ok: true; status: number } | { ok: false; reason: string };

/** The configured URL and the dotted setting it was read from (errors name the setting, never the URL). */
export interface WebhookDestination {
  url: string;
  setting: string;
}

/**
 * The one call out the webhook makes: the gateway's guarded transport (docs/outbound.md#4-the-transport-guard), reached
 * through the channel context's `request`. What it throws carries a `failure` (`redirect`, `timeout`, …).
 */
export interface WebhookTransport {
  request(request: {
    kind: string;
    destination: WebhookDestination;
    method: 'POST';
    headers: Record<string, string>;
    body: string;
    timeoutMs: number;
    readBody: false;
  }): Promise<{ status: number }>;
}

/** What the transport throws when no usable response came (the guard's OutboundError, the context's ChannelHttpError). */
interface TransportFailure {
  failure: string;
  message: string;
  status?: number;
  code?: string;
}

/**
 * POSTs `body` (already serialized: the signature covers these exact bytes) to the configured webhook,
 * signed with `token`, through the gateway's GuardedTransport (no redirects — a 3xx is a
 * failure, so a receiver cannot bounce the signed payload to another host —, a host named by DNS must not
 * resolve to a private address, ≤ 30 s). Only the status matters: the response body is discarded unread.
 * Reasons never include the URL (it may carry credentials in its query) or the token.
 * The guard: docs/outbound.md#4-the-transport-guard.
 */
export async function postSignedWebhook(
  transport: WebhookTransport,
  webhook: WebhookDestination,
  body: string,
  token: string,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<WebhookOutcome> {
  let status: number;
  try {
    const res = await transport.request({
      kind: 'webhook',
      destination: webhook,
      method: 'POST',
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(body, token),
        'User-Agent': 'clawgate-http-channel',
      },
      body,
      timeoutMs,
      readBody: false,
    });
    status = res.status;
  } catch (err) {
    return { ok: false, reason: transportReason(err, timeoutMs) };
  }
  if (status < 200 || status >= 300) return { ok: false, reason: `webhook answered HTTP ${status}` };
  return { ok: true, status };
}

function transportReason(err: unknown, timeoutMs: number): string {
  if (!isTransportFailure(err)) return 'webhook request failed';
  switch (err.failure) {
    case 'redirect':
      return `webhook answered with a redirect (HTTP ${err.status}); redirects are not followed`;
    case 'timeout':
      return `webhook did not answer within ${timeoutMs} ms`;
    case 'refused_address':
    case 'invalid_destination':
      // These name the host or the setting, never the path or query.
      return `webhook refused: ${err.message}`;
    default:
      // Only the socket error code: the transport's message names the host, the reason stays generic.
      return err.code ? `webhook request failed (${err.code})` : 'webhook request failed';
  }
}

function isTransportFailure(err: unknown): err is TransportFailure {
  const e = err as Partial<TransportFailure> | null;
  return !!e && typeof e === 'object' && typeof e.failure === 'string' && typeof e.message === 'string';
}
