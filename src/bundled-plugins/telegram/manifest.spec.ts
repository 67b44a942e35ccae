import { readManifest } from '../../modules/config/plugins/read-manifest';

describe('the telegram manifest', () => {
  it('is read and checked like any plugin manifest: the channel, its schema, its secrets and setup', async () => {
    const read = await readManifest(__dirname);
    expect(read).toMatchObject({
      manifest: {
        id: 'telegram',
        activation: 'channel',
        contracts: { channels: ['telegram'] },
        channelConfigs: {
          telegram: {
            secrets: ['botToken', 'webhookSecret', 'accounts.*.botToken', 'accounts.*.webhookSecret'],
            secretEnv: ['TELEGRAM_BOT_TOKEN'],
            setup: expect.arrayContaining([
              expect.objectContaining({ flag: 'bot-token', key: 'botToken', sensitive: true }),
              expect.objectContaining({ flag: 'webhook-secret', key: 'webhookSecret', sensitive: true }),
            ]),
          },
        },
      },
    });
  });
});
