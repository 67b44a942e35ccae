import { createHmac } from 'node:crypto';
import { signWebhookBody, verifyWebhookSignature } from './webhook-signature';

describe('webhook signature', () => {
  const token = 'desk-secret-token';
  const body = JSON.stringify({ sessionKey: 'agent:support:main', to: 'alice', text: 'héllo ✓', ts: '2026-01-01T00:00:00.000Z' });

  it('is sha256=<hex HMAC-SHA256 of the UTF-8 body bytes keyed by the token>', () => {
    // Computed independently of the helper, over explicit UTF-8 bytes.
    const expected = createHmac('sha256', Buffer.from(token, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex');
    expect(signWebhookBody(body, token)).toBe(`sha256=${expected}`);
    expect(signWebhookBody(Buffer.from(body, 'utf8'), token)).toBe(`sha256=${expected}`);
  });

  it('matches a fixed known vector (RFC 4231 test case 2)', () => {
    expect(signWebhookBody('what do ya want for nothing?', 'Jefe')).toBe(
      'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('verifies its own signature, also with an uppercase hex digest and surrounding whitespace', () => {
    const header = signWebhookBody(body, token);
    expect(verifyWebhookSignature(body, header, token)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), ` sha256=${header.slice(7).toUpperCase()} `, token)).toBe(true);
  });

  it('rejects a tampered body and a wrong token', () => {
    const header = signWebhookBody(body, token);
    expect(verifyWebhookSignature(body.replace('alice', 'mallory'), header, token)).toBe(false);
    expect(verifyWebhookSignature(`${body} `, header, token)).toBe(false);
    expect(verifyWebhookSignature(body, header, 'desk-secret-tokeN')).toBe(false);
    expect(verifyWebhookSignature(body, header, '')).toBe(false);
  });

  it.each([
    ['missing', undefined],
    ['null', null],
    ['empty', ''],
    ['without the sha256= prefix', 'HEX'],
    ['another algorithm', 'sha1=HEX'],
    ['a short digest', 'sha256=HEX'.slice(0, -2)],
    ['non-hex characters', 'sha256=' + 'z'.repeat(64)],
    ['a digest that is too long', 'sha256=HEX00'],
  ])('rejects a malformed header (%s) without throwing', (_what, template) => {
    const hex = signWebhookBody(body, token).slice(7);
    const header = template === undefined || template === null ? template : template.replace('HEX', hex);
    expect(verifyWebhookSignature(body, header, token)).toBe(false);
  });
});
