import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PluginsSettings } from '../../src/modules/config';
import { pluginState } from '../../src/modules/config/plugins/build-catalog';
import { readManifest } from '../../src/modules/config/plugins/read-manifest';

const settings = (over: Partial<PluginsSettings> = {}): PluginsSettings => ({
  enabled: true,
  deny: [],
  load: { paths: [] },
  entries: {},
  ...over,
});

/**
 * What every bundled plugin serving one of clawgate's own channels (http, openai, a2a) must be: its manifest in `dir`
 * names `id` and the core channel `channel`, is active at start, is refused outside the bundled plugins, and is
 * switched off only by naming it (`plugins.deny`, `plugins.entries.<id>.enabled: false`), never by the switches for
 * plugins at large.
 */
export function describeCoreChannelManifest(dir: string, id: string, channel: string): void {
  describe(`the ${id} manifest, serving the core channel ${channel}`, () => {
    it(`declares the core channel ${channel}, active at start`, async () => {
      const read = await readManifest(dir, { bundled: true });
      expect(read).toMatchObject({ ok: true, manifest: { id, activation: 'startup', contracts: { channels: [channel] } } });
    });

    it('is refused anywhere but among the bundled plugins', async () => {
      const copy = await fs.mkdtemp(path.join(os.tmpdir(), `${id}-manifest-`));
      try {
        await fs.copyFile(path.join(dir, 'clawgate.plugin.json'), path.join(copy, 'clawgate.plugin.json'));
        const read = await readManifest(copy);
        expect(read.ok).toBe(false);
        expect(!read.ok && read.problem).toContain(`contracts.channels: "${channel}" is a channel of clawgate itself`);
      } finally {
        await fs.rm(copy, { recursive: true, force: true });
      }
    });

    it('is switched off by naming it, not by the switches for plugins at large', async () => {
      const read = await readManifest(dir, { bundled: true });
      if (!read.ok) throw new Error(read.problem);
      const found = { id, source: 'bundled' as const, root: dir, manifest: read.manifest };
      const none = new Set<string>();
      expect(pluginState(found, settings({ enabled: false }), none).state).toBe('enabled');
      expect(pluginState(found, settings({ allow: ['weather'] }), none).state).toBe('enabled');
      expect(pluginState(found, settings({ deny: [id] }), none)).toEqual({ state: 'disabled', reason: 'on plugins.deny' });
      expect(pluginState(found, settings({ entries: { [id]: { enabled: false } } }), none).state).toBe('disabled');
    });
  });
}
