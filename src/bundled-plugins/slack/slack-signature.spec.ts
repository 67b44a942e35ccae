import { createHmac } from 'node:crypto';
import { signatureProblem } from './slack-signature';

describe('signatureProblem', () => {
  const secret = '8f742231b10e8888abcd99yyyzzz85a5';
  const body = Buffer.from('token=xyz&team_id=T1&text=hi');
  const now = 1_531_420_618;
  const sign = (ts: number, b: Buffer = body, s = secret): string =>
    `v0=${createHmac('sha256', s).update(`v0:${ts}:${b.toString()}`).digest('hex')}`;
  const headers = (ts: number, signature: string) => ({ 'x-slack-request-timestamp': String(ts), 'x-slack-signature': signature });

  it("accepts Slack's signature of the raw body within five minutes", () => {
    expect(signatureProblem(secret, headers(now, sign(now)), body, now)).toBeUndefined();
    expect(signatureProblem(secret, headers(now - 299, sign(now - 299)), body, now)).toBeUndefined();
  });

  it('refuses another secret, another body, an old timestamp, and missing headers', () => {
    expect(signatureProblem(secret, headers(now, sign(now, body, 'other')), body, now)).toBe('the signature does not match');
    expect(signatureProblem(secret, headers(now, sign(now)), Buffer.from('token=xyz&team_id=T1&text=hi!'), now)).toBe(
      'the signature does not match',
    );
    expect(signatureProblem(secret, headers(now - 301, sign(now - 301)), body, now)).toBe(
      'the request timestamp is not within five minutes of now',
    );
    expect(signatureProblem(secret, {}, body, now)).toMatch(/headers are required/);
    expect(signatureProblem(secret, headers(now, 'v0=short'), body, now)).toBe('the signature does not match');
  });
});
