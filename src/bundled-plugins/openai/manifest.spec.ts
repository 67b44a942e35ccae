import { readManifest } from '../../modules/config/plugins/read-manifest';
import { describeCoreChannelManifest } from '../../../test/support/core-channel-manifest';

describeCoreChannelManifest(__dirname, 'openai-endpoint', 'openai');

it('gives the endpoint no schema of its own: its section is gateway.http.endpoints.chatCompletions, the core’s', async () => {
  const read = await readManifest(__dirname, { bundled: true });
  expect(read).toMatchObject({ ok: true, manifest: { channelConfigs: {} } });
});
