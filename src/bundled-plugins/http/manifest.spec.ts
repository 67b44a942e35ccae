import { readManifest } from '../../modules/config/plugins/read-manifest';
import { describeCoreChannelManifest } from '../../../test/support/core-channel-manifest';

describeCoreChannelManifest(__dirname, 'http', 'http');

it('gives channels.http no schema of its own: the core’s validates it', async () => {
  const read = await readManifest(__dirname, { bundled: true });
  expect(read).toMatchObject({ ok: true, manifest: { channelConfigs: {} } });
});
