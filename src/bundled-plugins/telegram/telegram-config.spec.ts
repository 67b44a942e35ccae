import { accountFingerprint, telegramAccounts } from './telegram-config';

describe('telegramAccounts', () => {
  it('polls without webhookUrl, and takes the default account webhook from the section with its default path', () => {
    expect(telegramAccounts({ botToken: '1:a' }, {}).accounts).toEqual([
      { accountId: 'default', botToken: '1:a', apiRoot: 'https://api.telegram.org' },
    ]);
    expect(telegramAccounts({ botToken: '1:a', webhookUrl: 'https://b.example/tg', webhookSecret: 's' }, {}).accounts).toEqual([
      {
        accountId: 'default',
        botToken: '1:a',
        apiRoot: 'https://api.telegram.org',
        webhook: { url: 'https://b.example/tg', secret: 's', path: '/webhook/default' },
      },
    ]);
  });

  it("gives named accounts the section's secret but not its webhookUrl or webhookPath", () => {
    const { accounts } = telegramAccounts(
      {
        botToken: '1:a',
        webhookUrl: 'https://b.example/main',
        webhookSecret: 'shared',
        webhookPath: '/main',
        accounts: { work: { botToken: '2:b', webhookUrl: 'https://b.example/work' }, quiet: { botToken: '3:c' } },
      },
      {},
    );
    expect(Object.fromEntries(accounts.map((a) => [a.accountId, a.webhook]))).toEqual({
      default: { url: 'https://b.example/main', secret: 'shared', path: '/main' },
      work: { url: 'https://b.example/work', secret: 'shared', path: '/webhook/work' },
      quiet: undefined,
    });
  });

  it('names what an account in webhook mode lacks: a secret, or a path of its own', () => {
    const { accounts, missing } = telegramAccounts(
      {
        accounts: {
          a: { botToken: '1:a', webhookUrl: 'https://b.example/a', webhookSecret: 's', webhookPath: '/hook' },
          b: { botToken: '2:b', webhookUrl: 'https://b.example/b', webhookSecret: 's', webhookPath: '/hook' },
          c: { botToken: '3:c', webhookUrl: 'https://b.example/c' },
        },
      },
      {},
    );
    expect(accounts.map((a) => a.accountId)).toEqual(['a']);
    expect(missing).toEqual([
      { accountId: 'b', lacks: `webhookPath of its own (channels.telegram.accounts.b.webhookPath: "/hook" is account a's)` },
      { accountId: 'c', lacks: 'webhookSecret (channels.telegram.accounts.c.webhookSecret: webhook mode checks each update with it)' },
    ]);
  });

  it('restarts an account when its webhook changes', () => {
    const base = { accountId: 'default', botToken: '1:a', apiRoot: 'https://api.telegram.org' };
    const hooked = { ...base, webhook: { url: 'https://b.example/tg', secret: 's', path: '/webhook/default' } };
    expect(accountFingerprint(base)).not.toBe(accountFingerprint(hooked));
    expect(accountFingerprint(hooked)).not.toBe(accountFingerprint({ ...hooked, webhook: { ...hooked.webhook, secret: 't' } }));
  });
});
