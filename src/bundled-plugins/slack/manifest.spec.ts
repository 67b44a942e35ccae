import { readManifest } from '../../modules/config/plugins/read-manifest';

describe('the slack manifest', () => {
  it('is read and checked like any plugin manifest: the channel, its schema, its secrets and setup', async () => {
    const read = await readManifest(__dirname);
    expect(read).toMatchObject({
      manifest: {
        id: 'slack',
        activation: 'channel',
        contracts: { channels: ['slack'] },
        channelConfigs: {
          slack: {
            secrets: expect.arrayContaining(['botToken', 'appToken', 'signingSecret', 'accounts.*.appToken']),
            setup: expect.arrayContaining([expect.objectContaining({ flag: 'app-token', key: 'appToken', sensitive: true })]),
          },
        },
      },
    });
  });
});
