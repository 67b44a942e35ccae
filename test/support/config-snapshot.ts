import * as os from 'node:os';
import * as path from 'node:path';
import type { RuntimeSnapshot } from '../../src/modules/config/config.types';
import { formatConfigIssue } from '../../src/modules/config/pipeline/config-issue';
import { loadConfig } from '../../src/modules/config/pipeline/load-config';

export interface SnapshotOptions {
  /** Where agents' state dirs resolve; nothing is created there. Pass a temp dir when the test writes. */
  stateDir?: string;
  /** Values for ${VAR}; none by default, so the machine's environment never leaks into a test. */
  env?: NodeJS.ProcessEnv;
}

/**
 * A RuntimeSnapshot from config text (JSON5) or a plain document, made by the gateway's own loader: every
 * default, alias and cross-check applies, so a test sees exactly what a service sees at run time and
 * breaks when the config shape changes. A config the loader rejects throws with its errors.
 */
export async function snapshotFrom(config: string | Record<string, unknown>, options: SnapshotOptions = {}): Promise<RuntimeSnapshot> {
  const result = await loadConfig({
    // The root text is given, so this file is never read; its directory only anchors relative paths.
    configPath: path.join(os.tmpdir(), 'openclaw.json'),
    stateDir: options.stateDir ?? '/nonexistent/clawgate-state',
    homeDir: '/nonexistent/home',
    env: options.env ?? {},
    rootText: typeof config === 'string' ? config : JSON.stringify(config),
  });
  if (!result.ok) throw new Error(`the test config is invalid:\n  ${result.errors.map(formatConfigIssue).join('\n  ')}`);
  return result.snapshot;
}
