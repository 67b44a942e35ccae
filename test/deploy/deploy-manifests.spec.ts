import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import JSON5 from 'json5';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/modules/config';
import { dockerEnv, dockerInstructions } from '../support/dockerfile';

/**
 * The cluster deployment files (docs/deploy.md) agree with the gateway: deploy/docker-compose.yml with its
 * nginx.conf, and the Kubernetes manifests of deploy/k8s. No container runtime runs here, so what can be
 * checked without one is: the config they mount passes the gateway's own loader (the one `clawgate config
 * validate` runs) with exactly the variables they provide, the ports and paths line up with the config, the
 * image and the HTTP API the gateway serves, and the selectors find the pods.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const CLUSTER_CONFIG = 'deploy/openclaw.cluster.json';
const IMAGE_ENV = dockerEnv(dockerInstructions(read('Dockerfile')));
const IMAGE_PORT = Number(dockerInstructions(read('Dockerfile')).find(([k]) => k === 'EXPOSE')![1]);

type Doc = Record<string, any>;

/** The `${NAME}` references in the string values of a config text (where the gateway substitutes them). */
function configVariables(text: string): string[] {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (typeof node === 'string') for (const m of node.matchAll(/(?<!\$)\$\{([A-Z_][A-Z0-9_]*)\}/g)) names.add(m[1]);
    else if (node && typeof node === 'object') Object.values(node).forEach(visit);
  };
  visit(JSON5.parse(text));
  return [...names].sort();
}

/** Runs the gateway's config loader on `text` with `env` as the whole environment. */
async function validate(text: string, env: Record<string, string>) {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-manifests-'));
  try {
    const configPath = path.join(tmp, 'openclaw.json');
    await fs.writeFile(configPath, text);
    return await loadConfig({ configPath, stateDir: path.join(tmp, 'state'), homeDir: tmp, env });
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** GET paths of the HTTP API the gateway serves (its OpenAPI document, kept in sync with the code by its own test). */
function servedGetPaths(): Set<string> {
  const document = JSON.parse(read('schemas/openapi.json')) as { paths: Record<string, { get?: unknown }> };
  return new Set(Object.entries(document.paths).flatMap(([p, ops]) => (ops.get ? [p] : [])));
}

describe('deploy/k8s', () => {
  const docs: Doc[] = readdirSync(path.join(ROOT, 'deploy/k8s'))
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) =>
      parseAllDocuments(read(`deploy/k8s/${f}`)).map((d) => {
        if (d.errors.length) throw new Error(`deploy/k8s/${f}: ${d.errors.map((e) => e.message).join('; ')}`);
        return d.toJS() as Doc;
      }),
    );
  const only = (kind: string): Doc => {
    const found = docs.filter((d) => d.kind === kind);
    expect([kind, found.length]).toEqual([kind, 1]);
    return found[0];
  };
  const deployment = only('Deployment');
  const configMap = only('ConfigMap');
  const secret = only('Secret');
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  const volumeOf = (mountPath: string) => {
    const mount = container.volumeMounts.find((m: Doc) => m.mountPath === mountPath);
    return { mount, volume: pod.volumes.find((v: Doc) => v.name === mount?.name) };
  };

  it('holds a Deployment, ConfigMap, Secret, Service and PodDisruptionBudget, each named', () => {
    expect(docs.map((d) => d.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'PodDisruptionBudget', 'Secret', 'Service']);
    for (const d of docs) expect([d.kind, typeof d.apiVersion, typeof d.metadata?.name]).toEqual([d.kind, 'string', 'string']);
  });

  it('mounts the shared config read-only where the image reads it; its text is deploy/openclaw.cluster.json', () => {
    expect(configMap.data['openclaw.json']).toBe(read(CLUSTER_CONFIG));
    const { mount, volume } = volumeOf(path.posix.dirname(IMAGE_ENV.OPENCLAW_CONFIG_PATH));
    expect(mount.readOnly).toBe(true);
    expect(volume.configMap.name).toBe(configMap.metadata.name);
    expect(volumeOf(IMAGE_ENV.OPENCLAW_STATE_DIR).volume).toBeDefined();
  });

  it('the config validates with exactly the Secret as its environment: PostgreSQL state, Redis cluster, no unusable entry', async () => {
    expect(container.envFrom).toEqual([{ secretRef: { name: secret.metadata.name } }]);
    const text = configMap.data['openclaw.json'] as string;
    // Every variable the config names is provided (no more needed, none missing).
    expect(configVariables(text)).toEqual(Object.keys(secret.stringData).sort());
    const result = await validate(text, secret.stringData);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.warnings).toEqual([]);
    expect(result.snapshot.config.gateway.state).toMatchObject({ backend: 'postgres' });
    expect(result.snapshot.config.gateway.cluster).toBeDefined();
    // The check is real: without DATABASE_URL the same config is refused, naming the key.
    const { DATABASE_URL: _dropped, ...rest } = secret.stringData;
    const refused = await validate(text, rest);
    expect(refused.ok).toBe(false);
    expect(refused.ok ? [] : refused.errors.map((e) => e.path)).toContain('gateway.state.url');
  });

  it('ports line up: the config, the image, the container port the probes and the Service name', async () => {
    const result = await validate(configMap.data['openclaw.json'], secret.stringData);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const port = container.ports.find((p: Doc) => p.name === 'http');
    expect(port.containerPort).toBe(result.snapshot.config.gateway.port);
    expect(port.containerPort).toBe(IMAGE_PORT);
    expect(result.snapshot.config.gateway.bind).toBe('0.0.0.0');
    expect(container.readinessProbe.httpGet.port).toBe('http');
    expect(container.livenessProbe.httpGet.port).toBe('http');
    expect(only('Service').spec.ports.map((p: Doc) => p.targetPort)).toEqual(['http']);
  });

  it('probes readiness on /readyz and liveness on /healthz, both served by the gateway', () => {
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    const served = servedGetPaths();
    for (const p of ['/readyz', '/healthz']) expect([p, served.has(p)]).toEqual([p, true]);
  });

  it('the Service, the budget and the Deployment select the pods the Deployment makes', () => {
    const labels = deployment.spec.template.metadata.labels;
    const matches = (selector: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);
    expect(matches(deployment.spec.selector.matchLabels)).toBe(true);
    expect(matches(only('Service').spec.selector)).toBe(true);
    expect(matches(only('PodDisruptionBudget').spec.selector.matchLabels)).toBe(true);
    // A rolling update never goes below the replicas asked for; a drain takes one at a time.
    expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    expect(only('PodDisruptionBudget').spec.maxUnavailable).toBe(1);
  });

  it('runs as the image user by its number, with time to leave the endpoints before SIGTERM', () => {
    const uid = /--uid (\d+)/.exec(read('Dockerfile'))?.[1];
    expect(String(pod.securityContext.runAsUser)).toBe(uid);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    const [, pause] = container.lifecycle.preStop.exec.command as [string, string];
    expect(Number(pause)).toBeLessThan(pod.terminationGracePeriodSeconds);
  });
});

/** Compose's `${NAME}`, `${NAME:?message}` and `${NAME:-default}` with `env` (deploy/.env). */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([?-])([^}]*))?\}/g, (_w, name: string, op?: string, arg?: string) => {
    const set = env[name];
    if (set !== undefined && set !== '') return set;
    if (op === '-') return arg ?? '';
    throw new Error(`compose variable ${name} is not in deploy/.env.example${op === '?' ? ` (${arg})` : ''}`);
  });
}

describe('deploy/docker-compose.yml', () => {
  const compose = parse(read('deploy/docker-compose.yml')) as Doc;
  const dotEnv = Object.fromEntries(
    read('deploy/.env.example')
      .split('\n')
      .filter((l) => /^[A-Z_][A-Z0-9_]*=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  const gateways = Object.keys(compose.services).filter((name) => name.startsWith('gateway-'));
  const envOf = (service: string) =>
    Object.fromEntries(
      Object.entries(compose.services[service].environment as Record<string, string>).map(([k, v]) => [k, interpolate(String(v), dotEnv)]),
    );
  const mounts = (service: string) =>
    (compose.services[service].volumes as string[]).map((v) => {
      const [source, target, mode] = v.split(':');
      return { source, target, mode };
    });

  it('runs PostgreSQL, Redis, two gateway replicas from the repository Dockerfile, and nginx', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['gateway-1', 'gateway-2', 'nginx', 'postgres', 'redis']);
    const builds = gateways.filter((g) => compose.services[g].build);
    expect(builds).toHaveLength(1);
    const build = compose.services[builds[0]].build;
    expect(path.resolve(ROOT, 'deploy', build.context, build.dockerfile)).toBe(path.join(ROOT, 'Dockerfile'));
    // Every replica runs the image that one built.
    expect(new Set(gateways.map((g) => compose.services[g].image)).size).toBe(1);
  });

  it('every variable the file interpolates is in deploy/.env.example', () => {
    expect(() => interpolate(read('deploy/docker-compose.yml'), dotEnv)).not.toThrow();
    // …and interpolation fails loudly without them (a `${VAR:?…}` on each secret).
    expect(() => interpolate(read('deploy/docker-compose.yml'), {})).toThrow(/POSTGRES_PASSWORD/);
  });

  it('each replica mounts the shared config read-only, has a state volume of its own and a stable hostname', () => {
    const stateVolumes = gateways.map((g) => {
      const config = mounts(g).find((m) => m.target === IMAGE_ENV.OPENCLAW_CONFIG_PATH);
      expect([g, config]).toEqual([
        g,
        { source: `./${path.basename(CLUSTER_CONFIG)}`, target: IMAGE_ENV.OPENCLAW_CONFIG_PATH, mode: 'ro' },
      ]);
      expect(compose.services[g].hostname).toBe(g);
      return mounts(g).find((m) => m.target === IMAGE_ENV.OPENCLAW_STATE_DIR)?.source;
    });
    expect(new Set(stateVolumes).size).toBe(gateways.length);
    for (const v of stateVolumes) expect(Object.keys(compose.volumes)).toContain(v);
  });

  it('the config validates with each replica environment, pointing at the postgres and redis services', async () => {
    const text = read(CLUSTER_CONFIG);
    const postgres = envOf('postgres');
    for (const g of gateways) {
      const env = envOf(g);
      expect([g, configVariables(text)]).toEqual([g, Object.keys(env).sort()]);
      const result = await validate(text, env);
      if (!result.ok) throw new Error(`${g}: ${JSON.stringify(result.errors)}`);
      expect(result.warnings).toEqual([]);
      const db = new URL(env.DATABASE_URL);
      expect([db.hostname, db.port, db.username, db.password, db.pathname]).toEqual([
        'postgres',
        '5432',
        postgres.POSTGRES_USER,
        postgres.POSTGRES_PASSWORD,
        `/${postgres.POSTGRES_DB}`,
      ]);
      expect(new URL(env.REDIS_URL).hostname).toBe('redis');
      const redisCommand = (compose.services.redis.command as string[]).map((a) => interpolate(a, dotEnv));
      expect(redisCommand[redisCommand.indexOf('--requirepass') + 1]).toBe(env.REDIS_PASSWORD);
      expect(Object.keys(compose.services[g].depends_on)).toEqual(expect.arrayContaining(['postgres', 'redis']));
    }
  });

  it('nginx round-robins over every replica on the config port and listens on the port it publishes', async () => {
    const conf = read('deploy/nginx.conf');
    const upstream = /upstream clawgate \{([^}]*)\}/.exec(conf)?.[1] ?? '';
    const servers = [...upstream.matchAll(/^\s*server\s+([^\s;]+)/gm)].map((m) => m[1]);
    const result = await validate(read(CLUSTER_CONFIG), envOf(gateways[0]));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(servers).toEqual(gateways.map((g) => `${g}:${result.snapshot.config.gateway.port}`));
    // No balancing directive in the upstream: nginx's default, round-robin.
    expect(upstream).not.toMatch(/\b(ip_hash|hash|least_conn|random)\b/);
    const listen = /^\s*listen\s+(\d+);/m.exec(conf)?.[1];
    expect(compose.services.nginx.ports.map((p: string) => p.split(':').pop())).toEqual([listen]);
    expect(mounts('nginx')).toContainEqual({ source: './nginx.conf', target: '/etc/nginx/nginx.conf', mode: 'ro' });
    expect(Object.keys(compose.services.nginx.depends_on).sort()).toEqual(gateways);
  });
});
