import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readManifest } from '../../modules/config/plugins/read-manifest';
import { describeCoreChannelManifest } from '../../../test/support/core-channel-manifest';

describeCoreChannelManifest(__dirname, 'a2a', 'a2a');

/** A copy of the manifest with `edit` applied, in a temporary directory. */
async function editedManifest(edit: (manifest: Record<string, any>) => void): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'a2a-manifest-'));
  const manifest = JSON.parse(await fs.readFile(path.join(__dirname, 'clawgate.plugin.json'), 'utf8')) as Record<string, any>;
  edit(manifest);
  await fs.writeFile(path.join(dir, 'clawgate.plugin.json'), JSON.stringify(manifest));
  return dir;
}

describe('the a2a manifest', () => {
  it('declares the core channel a2a, active at start, with its setup fields and no schema (channels.a2a is the core’s)', async () => {
    const read = await readManifest(__dirname, { bundled: true });
    expect(read).toMatchObject({
      ok: true,
      manifest: { id: 'a2a', name: 'A2A', version: '0.1.0', activation: 'startup', contracts: { channels: ['a2a'] } },
    });
    if (!read.ok) throw new Error(read.problem);
    expect(read.manifest.channelConfigs).toEqual({
      a2a: {
        setup: [
          { flag: 'advertised-url', key: 'advertisedUrl', description: 'The public origin the Agent Card names' },
          { flag: 'peer-name', key: 'peers.*', description: 'The name of a peer allowed to call (its key under peers)' },
          { flag: 'peer-token', key: 'peers.*.token', sensitive: true, description: 'The bearer token that peer presents' },
        ],
      },
    });
  });

  it('may not give channels.a2a a schema of its own: the core’s is the one that validates it', async () => {
    const dir = await editedManifest((m) => (m.channelConfigs.a2a.schema = { type: 'object' }));
    try {
      const read = await readManifest(dir, { bundled: true });
      expect(!read.ok && read.problem).toContain(
        "channelConfigs.a2a.schema: channels.a2a is validated by clawgate's own schema; give only its setup fields",
      );
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('a plugin’s own channel still needs its schema', async () => {
    const dir = await editedManifest((m) => {
      m.id = 'peers';
      m.contracts = { channels: ['peers'] };
      m.channelConfigs = { peers: { setup: m.channelConfigs.a2a.setup } };
    });
    try {
      const read = await readManifest(dir);
      expect(!read.ok && read.problem).toContain('channelConfigs.peers.schema: is required (the JSON Schema of channels.peers)');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
