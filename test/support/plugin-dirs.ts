import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** A plugin directory for a test: its manifest (or none), its files, with the modes a trusted plugin has. */
export interface PluginDirSpec {
  /** The manifest object written to `clawgate.plugin.json` (or `manifestName`); absent: no manifest at all. */
  manifest?: Record<string, unknown>;
  manifestName?: 'clawgate.plugin.json' | 'openclaw.plugin.json';
  /** Other files, by path relative to the plugin directory. */
  files?: Record<string, string>;
}

/**
 * A plugin whose config is `{ greeting?: string, signingKey?: string, level?: "low" | "high" }`, registering
 * nothing. `signingKey` is a secret only because the manifest says so (no name rule of the core catches it).
 */
export function greetingManifest(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name: `${id} plugin`,
    version: '1.2.3',
    configSchema: {
      type: 'object',
      additionalProperties: false,
      properties: { greeting: { type: 'string' }, signingKey: { type: 'string' }, level: { enum: ['low', 'high'] } },
    },
    secrets: ['signingKey'],
    contracts: { tools: ['greet'] },
    ...extra,
  };
}

/** Writes the plugin at `dir` (mode 755, files 644: what the trust check accepts) and returns `dir`. */
export async function writePluginDir(dir: string, spec: PluginDirSpec): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const files: Record<string, string> = { 'index.js': 'module.exports = { register() {} };\n', ...(spec.files ?? {}) };
  if (spec.manifest) files[spec.manifestName ?? 'clawgate.plugin.json'] = `${JSON.stringify(spec.manifest, null, 2)}\n`;
  for (const [name, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), text, { mode: 0o644 });
    await fs.chmod(path.join(dir, name), 0o644);
  }
  await fs.chmod(dir, 0o755);
  return dir;
}
