import { webhookSecretProblem } from './webhook-secret';

describe('webhookSecretProblem', () => {
  const secret = 'the_secret-1';

  it('accepts the header that carries the secret (also as the first of repeated headers)', () => {
    expect(webhookSecretProblem(secret, { 'x-telegram-bot-api-secret-token': secret })).toBeUndefined();
    expect(webhookSecretProblem(secret, { 'x-telegram-bot-api-secret-token': [secret, 'other'] })).toBeUndefined();
  });

  it('names a missing header and a different value, whatever its length, without quoting either', () => {
    expect(webhookSecretProblem(secret, {})).toBe('the X-Telegram-Bot-Api-Secret-Token header is required');
    expect(webhookSecretProblem(secret, { 'x-telegram-bot-api-secret-token': '' })).toBe(
      'the X-Telegram-Bot-Api-Secret-Token header is required',
    );
    for (const wrong of ['the_secret-2', 'the_secret', `${secret}x`, 'x']) {
      expect(webhookSecretProblem(secret, { 'x-telegram-bot-api-secret-token': wrong })).toBe(
        'the X-Telegram-Bot-Api-Secret-Token header does not match',
      );
    }
  });
});
