import { execFile } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/modules/config';
import { dockerEnv, dockerInstructions } from '../support/dockerfile';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * The deployment files (docs/deploy.md): the container image's default config boots and closes the
 * admin API without a token, its health check script tells a live gateway from a dead one, and the
 * Dockerfile and systemd unit agree with each other and with the gateway's CLI. Building the image and running
 * the unit need docker and systemd; test/system/systemd-unit.system-spec.ts verifies the unit with
 * systemd-analyze.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const CONTAINER_CONFIG = 'deploy/openclaw.container.json';
const ADMIN_TOKEN = 'container-admin-token-6f1c';
const run = promisify(execFile);

/** Exit code of deploy/healthcheck.js asked to check `url`. */
async function healthcheck(url: string): Promise<number> {
  try {
    await run(process.execPath, [path.join(ROOT, 'deploy/healthcheck.js')], { env: { CLAWGATE_HEALTHCHECK_URL: url }, timeout: 10_000 });
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

/** Whether a .dockerignore pattern excludes `file` or a directory above it (the build context's rules). */
function ignored(patterns: string[], file: string): boolean {
  const regexes = patterns.map((p) => {
    // `**/` = any directories (or none), `*` = any run within one path segment; everything else is literal.
    const body = p
      .split('**/')
      .map((part) =>
        part
          .split('*')
          .map((literal) => literal.replace(/[.+?^${}()|[\]\\]/g, (c) => `\\${c}`))
          .join('[^/]*'),
      )
      .join('(?:.*/)?');
    return new RegExp(`^${body}$`);
  });
  const parts = file.split('/');
  const prefixes = parts.map((_p, i) => parts.slice(0, i + 1).join('/'));
  return prefixes.some((prefix) => regexes.some((r) => r.test(prefix)));
}

describe('the container image default config', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    // As in the image, except the listener: a test binds loopback only, never every interface.
    const text = read(CONTAINER_CONFIG).replace('bind: "0.0.0.0"', 'bind: "127.0.0.1"');
    gw = await startTestGateway(text, { env: { CLAWGATE_ADMIN_TOKEN: ADMIN_TOKEN } });
  });
  afterAll(() => gw?.stop());

  it('loads: listens on every interface, offline model, an admin token from the environment', async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-deploy-'));
    try {
      const result = await loadConfig({ configPath: path.join(ROOT, CONTAINER_CONFIG), stateDir: tmp, homeDir: tmp, env: {} });
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      expect(result.snapshot.config.gateway).toMatchObject({ port: 18789, bind: '0.0.0.0' });
      expect(result.snapshot.config.agents.map((a) => a.model)).toEqual(['echo/default']);
      // Unset, the token is unusable: a warning, never a literal credential.
      expect(result.warnings.map((w) => w.path)).toEqual(['gateway.admin.tokens[0].token']);
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  });

  it('closes the admin API to callers without the token, loopback included', async () => {
    expect((await fetch(`${gw.url}/admin/config/status`)).status).toBe(401);
    const ok = await fetch(`${gw.url}/admin/config/status`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(ok.status).toBe(200);
  });

  it('deploy/healthcheck.js exits 0 for a healthy gateway, 1 for a wrong path or a closed port', async () => {
    expect(await healthcheck(`${gw.url}/healthz`)).toBe(0);
    expect(await healthcheck(`${gw.url}/no-such-path`)).toBe(1);
    const closed = await startTestGateway('{}');
    const deadUrl = `${closed.url}/healthz`;
    await closed.stop();
    expect(await healthcheck(deadUrl)).toBe(1);
  });
});

describe('Dockerfile', () => {
  const instructions = dockerInstructions(read('Dockerfile'));
  const all = (keyword: string) => instructions.filter(([k]) => k === keyword).map(([, args]) => args);
  const env = dockerEnv(instructions);

  it('builds in one stage with dev dependencies and runs from a second one without them', () => {
    expect(all('FROM')).toEqual(['node:${NODE_VERSION}-bookworm-slim AS build', 'node:${NODE_VERSION}-bookworm-slim AS runtime']);
    expect(all('RUN').join('\n')).toContain('npm ci');
    expect(all('RUN').join('\n')).toContain('npm prune --omit=dev');
    // Everything the runtime stage takes from the build stage is the pruned result.
    const fromBuild = all('COPY').filter((c) => c.startsWith('--from=build'));
    expect(fromBuild.map((c) => c.split(/\s+/)[1])).toEqual(['/app/package.json', '/app/node_modules', '/app/dist']);
  });

  it('runs as an unprivileged user, with the state dir as a volume and the config path from the environment', () => {
    const users = all('USER');
    expect(users).toHaveLength(1);
    expect(users[0]).not.toMatch(/^(root|0)(:|$)/);
    expect(all('VOLUME')).toEqual([`["${env.OPENCLAW_STATE_DIR}"]`]);
    expect(env.OPENCLAW_CONFIG_PATH).toBe('/etc/clawgate/openclaw.json');
    expect(all('COPY')).toContain(`--chown=clawgate:clawgate ${CONTAINER_CONFIG} ${env.OPENCLAW_CONFIG_PATH}`);
    expect(all('ENTRYPOINT')).toEqual(['["node", "/opt/clawgate/dist/cli.js", "gateway"]']);
  });

  it('checks health with the script it copies, against /healthz on the default port', () => {
    const [check] = all('HEALTHCHECK');
    expect(check).toMatch(/CMD \["node", "\/opt\/clawgate\/deploy\/healthcheck\.js"\]$/);
    expect(all('COPY')).toContain('deploy/healthcheck.js ./deploy/healthcheck.js');
    expect(read('deploy/healthcheck.js')).toContain("'http://127.0.0.1:18789/healthz'");
  });

  it('copies only files that exist and that .dockerignore leaves in the build context', async () => {
    const patterns = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const sources = all('COPY')
      .filter((c) => !c.startsWith('--from='))
      .flatMap((c) =>
        c
          .replace(/--chown=\S+\s+/, '')
          .split(/\s+/)
          .slice(0, -1),
      );
    expect(sources.length).toBeGreaterThanOrEqual(5);
    for (const source of sources) {
      await fs.access(path.join(ROOT, source));
      expect([source, ignored(patterns, source)]).toEqual([source, false]);
    }
    // The large and the private stay out of the context.
    for (const kept of ['node_modules', 'data', '.git', 'dist', 'test/x.e2e-spec.ts'])
      expect([kept, ignored(patterns, kept)]).toEqual([kept, true]);
  });
});

describe('deploy/clawgate.service', () => {
  const unit = read('deploy/clawgate.service');
  const values = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]);

  it('starts the gateway as the Dockerfile does, on the state dir systemd creates for it', () => {
    const [exec] = values('ExecStart');
    expect(exec).toMatch(/^\/usr\/bin\/node \/opt\/clawgate\/dist\/cli\.js gateway --config (\S+) --state-dir (\S+)$/);
    const [, config, stateDir] = /--config (\S+) --state-dir (\S+)$/.exec(exec)!;
    expect(stateDir).toBe(`/var/lib/${values('StateDirectory')[0]}`);
    expect(values('ReadWritePaths')).toEqual([path.posix.dirname(config)]);
    expect(values('RestartPreventExitStatus')).toEqual(['78']);
  });

  it('runs unprivileged and hardened, without the option that would break the V8 JIT', () => {
    expect(values('User')).toEqual(['clawgate']);
    for (const [key, value] of [
      ['NoNewPrivileges', 'yes'],
      ['ProtectSystem', 'strict'],
      ['ProtectHome', 'yes'],
      ['PrivateTmp', 'yes'],
      ['Restart', 'on-failure'],
    ]) {
      expect([key, values(key)]).toEqual([key, [value]]);
    }
    expect(values('MemoryDenyWriteExecute')).toEqual([]);
  });
});
