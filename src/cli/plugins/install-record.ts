import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { PluginSourceKind } from './plugin-source';

/**
 * `<stateDir>/extensions/<id>/.clawgate-install.json`: what `plugins install` put there, so `doctor` can tell a
 * plugin changed since (another version on disk) and an operator can reinstall the same thing. Kept beside the
 * files it describes, not in openclaw.json: the config is shared between machines and names what may run, the
 * record describes what is on this disk.
 */
export const INSTALL_RECORD_FILE = '.clawgate-install.json';

export interface InstallRecord {
  id: string;
  /** The manifest's version, else package.json's; null when neither gives one. */
  version: string | null;
  source: { kind: PluginSourceKind; spec: string; integrity?: string };
  /** Each dependency as installed (name → version), empty when it has none. */
  dependencies: Record<string, string>;
  installedAt: string;
}

export async function readInstallRecord(pluginDir: string): Promise<InstallRecord | undefined> {
  try {
    return JSON.parse(await fs.readFile(path.join(pluginDir, INSTALL_RECORD_FILE), 'utf8')) as InstallRecord;
  } catch {
    return undefined;
  }
}

export async function writeInstallRecord(pluginDir: string, record: InstallRecord): Promise<void> {
  await fs.writeFile(path.join(pluginDir, INSTALL_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}
