import { readManifest } from '../../modules/config/plugins/read-manifest';

describe('the discord manifest', () => {
  it('is read and checked like any plugin manifest: the channel, its schema, its secrets and setup', async () => {
    const read = await readManifest(__dirname);
    expect(read).toMatchObject({
      manifest: {
        id: 'discord',
        activation: 'channel',
        contracts: { channels: ['discord'] },
        channelConfigs: {
          discord: {
            secrets: ['token', 'accounts.*.token'],
            setup: expect.arrayContaining([expect.objectContaining({ flag: 'token', key: 'token', sensitive: true })]),
          },
        },
      },
    });
  });
});
