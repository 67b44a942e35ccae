import { signWebhookBody, WEBHOOK_SIGNATURE_HEADER } from './webhook-signature';

/** SPEC §8.6 leaves the timeout open; 10 s keeps a stalled receiver from holding announce deliveries. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export type WebhookOutcome = { ok: true; status: number } | { ok: false; reason: string };

/**
 * POSTs `body` (already serialized: the signature covers these exact bytes) to `url`, signed with `token`.
 * Only the status matters: redirects are never followed (a 3xx is a failure, so a receiver cannot bounce
 * the signed payload to another host), the response body is discarded unread. Reasons never include the
 * URL (it may carry credentials in its query) or the token.
 */
export async function postSignedWebhook(url: string, body: string, token: string, timeoutMs = WEBHOOK_TIMEOUT_MS): Promise<WebhookOutcome> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(body, token),
        'User-Agent': 'clawgate-http-channel',
      },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    return { ok: false, reason: transportReason(err, timeoutMs) };
  }
  // Free the connection without reading what the receiver sent back.
  await res.body?.cancel().catch(() => undefined);
  if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
    const status = res.status ? ` (HTTP ${res.status})` : '';
    return { ok: false, reason: `webhook answered with a redirect${status}; redirects are not followed` };
  }
  if (res.status < 200 || res.status >= 300) return { ok: false, reason: `webhook answered HTTP ${res.status}` };
  return { ok: true, status: res.status };
}

function transportReason(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; cause?: { code?: unknown; name?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || e?.cause?.name === 'TimeoutError') {
    return `webhook did not answer within ${timeoutMs} ms`;
  }
  // undici puts the socket error (ECONNREFUSED, ENOTFOUND, ...) in `cause`; its message may name the host.
  const code = typeof e?.cause?.code === 'string' ? e.cause.code : undefined;
  return code ? `webhook request failed (${code})` : 'webhook request failed';
}
