import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { GatewayProcess } from '../../fixtures/gateway-process';

/**
 * One replica of a cluster test: its own home `<dir>/<name>` with its `openclaw.json` and state dir, started as a real
 * `clawgate gateway` process (replicas share only what the config points them at: PostgreSQL, Redis).
 */
export async function startReplicaIn(
  dir: string,
  name: string,
  options: { cliJs: string; config: string; env?: NodeJS.ProcessEnv },
): Promise<GatewayProcess> {
  const home = path.join(dir, name);
  await fs.mkdir(home, { recursive: true });
  const configPath = path.join(home, 'openclaw.json');
  await fs.writeFile(configPath, options.config);
  return GatewayProcess.start({ cliJs: options.cliJs, configPath, stateDir: path.join(home, 'state'), home, env: options.env });
}
