import { execFile } from 'node:child_process';
import { promises as fs, constants as fsConstants } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from './nginx';
import { requireProgram } from './system-program';

const run = promisify(execFile);

const INSTALL = 'sudo apt-get install -y postgresql  (Debian/Ubuntu; its programs are in /usr/lib/postgresql/<version>/bin)';
/** The role the harness creates; its password is what every URL carries, like a production DATABASE_URL. */
const ROLE = 'clawgate';
const PASSWORD = 'harness-password';

/** A real PostgreSQL server started for one suite in a temp dir; nothing outside that dir is touched. */
export interface TestPostgres {
  port: number;
  dir: string;
  /** A new, empty database; returns its `postgres://clawgate:…@127.0.0.1:<port>/<name>` URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (immediate shutdown) and removes the temp dir. */
  stop(): Promise<void>;
}

/**
 * The directory of initdb/pg_ctl: on PATH, else the newest /usr/lib/postgresql/<version>/bin (where Debian puts
 * them), else an error naming the install. `.ci/run` installs the package when neither has pg_ctl.
 */
export async function findPostgresBin(): Promise<string> {
  const versions = await fs.readdir('/usr/lib/postgresql').catch(() => [] as string[]);
  const debianDirs = versions.sort((a, b) => Number(b) - Number(a)).map((v) => path.join('/usr/lib/postgresql', v, 'bin'));
  for (const dir of debianDirs) {
    if (await isExecutable(path.join(dir, 'pg_ctl'))) return dir;
  }
  return path.dirname(await requireProgram('pg_ctl', INSTALL));
}

async function isExecutable(file: string): Promise<boolean> {
  return fs.access(file, fsConstants.X_OK).then(
    () => true,
    () => false,
  );
}

/**
 * initdb refuses to run as root, and the server as well: as root the harness runs them as the `postgres` user the
 * Debian package creates (runuser), with the temp dir handed to it; otherwise as the current user.
 */
async function asServerUser(dir: string): Promise<(file: string, args: string[]) => Promise<unknown>> {
  if (process.getuid?.() !== 0) return (file, args) => run(file, args);
  const { stdout } = await run('id', ['-u', 'postgres']).catch(() => {
    throw new Error(`running as root, the harness needs the "postgres" user to run the server as: ${INSTALL}`);
  });
  const uid = Number(stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  await fs.chown(dir, uid, gid);
  return (file, args) => run('runuser', ['-u', 'postgres', '--', file, ...args]);
}

/**
 * initdb into a temp dir, then `pg_ctl start` on a free loopback port with its unix socket in the same dir.
 * Local connections are trusted (the harness's own); TCP ones need the role's password (SCRAM), as in production.
 * fsync is off: the cluster is thrown away after the suite, and a commit still waits for the server.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = await findPostgresBin();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const asServer = await asServerUser(dir);
  const pwfile = path.join(dir, 'pwfile');
  await fs.writeFile(pwfile, `${PASSWORD}\n`, { mode: 0o644 });
  const pgCtl = path.join(bin, 'pg_ctl');
  try {
    await asServer(path.join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      ROLE,
      `--pwfile=${pwfile}`,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--no-instructions',
    ]);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
    await asServer(pgCtl, ['-D', data, '-l', path.join(dir, 'server.log'), '-o', options, '-w', '-t', '30', 'start']);
  } catch (err) {
    const log = await fs.readFile(path.join(dir, 'server.log'), 'utf8').catch(() => '');
    await fs.rm(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL from ${bin}: ${(err as Error).message}\n${log}`);
  }
  const url = (db: string) => `postgres://${ROLE}:${PASSWORD}@127.0.0.1:${port}/${db}`;
  return {
    port,
    dir,
    async createDatabase(name) {
      const admin = new Client({ connectionString: url('postgres') });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    async stop() {
      try {
        await asServer(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** One server per suite (started before its tests, stopped after them) and a new database whenever a test asks. */
export interface SuitePostgres {
  /** The running server (after the suite's beforeAll). */
  readonly server: TestPostgres;
  /** A new, empty database named `<prefix>_<n>`; its URL. */
  freshDatabase(): Promise<string>;
}

/** Registers the suite's beforeAll/afterAll; call it at the top level of a spec file. */
export function postgresForSuite(prefix: string): SuitePostgres {
  let server: TestPostgres | undefined;
  let databases = 0;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const running = (): TestPostgres => {
    if (!server) throw new Error('PostgreSQL is not started yet: use it inside a test or a hook');
    return server;
  };
  return {
    get server() {
      return running();
    },
    freshDatabase: () => running().createDatabase(`${prefix}_${++databases}`),
  };
}
