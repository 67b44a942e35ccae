import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a request's timestamp may be from now: Slack's own advice, against replays. */
export const SIGNATURE_WINDOW_SECONDS = 5 * 60;

/**
 * Checks a request from Slack's Events API (https://api.slack.com/authentication/verifying-requests-from-slack):
 * `X-Slack-Signature` must be `v0=` + the hex HMAC-SHA256, keyed by the app's signing secret, of
 * `v0:<X-Slack-Request-Timestamp>:<raw body>`, compared in constant time, and the timestamp within five minutes.
 * Returns what is wrong, or undefined when the request is Slack's.
 */
export function signatureProblem(
  signingSecret: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  rawBody: Buffer,
  nowSeconds = Math.floor(Date.now() / 1000),
): string | undefined {
  const timestamp = header(headers, 'x-slack-request-timestamp');
  const signature = header(headers, 'x-slack-signature');
  if (!timestamp || !signature) return 'the X-Slack-Signature and X-Slack-Request-Timestamp headers are required';
  const seconds = Number(timestamp);
  if (!Number.isInteger(seconds) || Math.abs(nowSeconds - seconds) > SIGNATURE_WINDOW_SECONDS) {
    return 'the request timestamp is not within five minutes of now';
  }
  const expected = Buffer.from(
    `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:`).update(rawBody).digest('hex')}`,
    'utf8',
  );
  const given = Buffer.from(signature, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'the signature does not match';
  return undefined;
}

function header(headers: Readonly<Record<string, string | string[] | undefined>>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
