import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pluginState } from '../../modules/config/plugins/build-catalog';
import { readManifest } from '../../modules/config/plugins/read-manifest';
import type { PluginsSettings } from '../../modules/config';

const settings = (over: Partial<PluginsSettings> = {}): PluginsSettings => ({
  enabled: true,
  deny: [],
  load: { paths: [] },
  entries: {},
  ...over,
});

describe('the openai manifest', () => {
  it('declares the core channel openai, active at start, with no schema of its own (its section is gateway.http.endpoints.chatCompletions)', async () => {
    const read = await readManifest(__dirname, { bundled: true });
    expect(read).toMatchObject({
      ok: true,
      manifest: { id: 'openai-endpoint', activation: 'startup', contracts: { channels: ['openai'] }, channelConfigs: {} },
    });
  });

  it('is refused anywhere but among the bundled plugins', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'openai-manifest-'));
    try {
      await fs.copyFile(path.join(__dirname, 'clawgate.plugin.json'), path.join(dir, 'clawgate.plugin.json'));
      const read = await readManifest(dir);
      expect(read.ok).toBe(false);
      expect(!read.ok && read.problem).toContain('contracts.channels: "openai" is a channel of clawgate itself');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('is switched off by naming it, not by the switches for plugins at large', async () => {
    const read = await readManifest(__dirname, { bundled: true });
    if (!read.ok) throw new Error(read.problem);
    const found = { id: 'openai', source: 'bundled' as const, root: __dirname, manifest: read.manifest };
    const none = new Set<string>();
    expect(pluginState(found, settings({ enabled: false }), none).state).toBe('enabled');
    expect(pluginState(found, settings({ allow: ['weather'] }), none).state).toBe('enabled');
    expect(pluginState(found, settings({ deny: ['openai'] }), none)).toEqual({ state: 'disabled', reason: 'on plugins.deny' });
    expect(pluginState(found, settings({ entries: { openai: { enabled: false } } }), none).state).toBe('disabled');
  });
});
