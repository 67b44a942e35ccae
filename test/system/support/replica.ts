import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CliBuild, transpileCli } from '../../fixtures/cli-runner';
import { GatewayProcess } from '../../fixtures/gateway-process';
import { startPostgres, type TestPostgres } from './postgres';
import { startRedis, type TestRedis } from './redis';

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

/** What the cluster suites share: PostgreSQL, Redis, the CLI build and a temp dir for the replicas' homes. */
export interface ReplicaCluster {
  readonly postgres: TestPostgres;
  readonly redis: TestRedis;
  /** The suite's own database, passed to every replica as DATABASE_URL. */
  readonly databaseUrl: string;
  readonly dir: string;
  /** Starts replica `name` (`<dir>/<name>`) with the suite's config; every replica started is killed at close. */
  start(name: string): Promise<GatewayProcess>;
  stateDirOf(name: string): string;
  /** Kills the replicas (kill -9: nothing of theirs may be needed after a suite), stops the servers, removes the dir. */
  close(): Promise<void>;
}

/** Starts the shared servers of a cluster suite; `config` writes a replica's openclaw.json from the Redis URL. */
export async function startReplicaCluster(options: { database: string; config: (redisUrl: string) => string }): Promise<ReplicaCluster> {
  const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  const databaseUrl = await postgres.createDatabase(options.database);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `clawgate-${options.database}-`));
  const build: CliBuild = await transpileCli();
  const gateways: GatewayProcess[] = [];
  return {
    postgres,
    redis,
    databaseUrl,
    dir,
    async start(name) {
      const gateway = await startReplicaIn(dir, name, {
        cliJs: build.cliJs,
        config: options.config(redis.url),
        env: { DATABASE_URL: databaseUrl },
      });
      gateways.push(gateway);
      return gateway;
    },
    stateDirOf: (name) => path.join(dir, name, 'state'),
    async close() {
      for (const gateway of gateways) await gateway.kill9();
      await build.remove();
      await redis.destroy();
      await postgres.stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
