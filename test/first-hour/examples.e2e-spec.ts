import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import JSON5 from 'json5';
import { buildConfigJsonSchema, formatConfigIssue, loadConfig } from '../../src/modules/config';
import { walkSchemaProperties } from '../support/config-reference';
import { EXAMPLES_DIR, listExamples, renderExports, renderStart, renderStep } from '../support/example-steps';

/**
 * The examples/ folder as an operator meets it: every openclaw.json there loads through the real config
 * pipeline (from the file on disk to the runtime snapshot), and every README shows exactly the start
 * command, exports, `config validate` output and requests that test/first-hour/examples-run.e2e-spec.ts runs.
 */

const EXAMPLES = listExamples();

let tmp: string;
beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-examples-'));
});
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));

const load = (file: string, env: NodeJS.ProcessEnv) =>
  loadConfig({ configPath: file, stateDir: path.join(tmp, 'state'), homeDir: path.join(tmp, 'home'), env });

/** Every openclaw.json below examples/, relative to it. */
function configFiles(dir = EXAMPLES_DIR, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const rel = prefix ? `${prefix}/${d.name}` : d.name;
    if (d.isDirectory()) return configFiles(path.join(dir, d.name), rel);
    return d.name === 'openclaw.json' ? [rel] : [];
  });
}

describe('examples/', () => {
  it('has the six scenarios, each with a README, a requests.json and its config(s)', () => {
    expect(EXAMPLES.map((e) => e.name)).toEqual(['a2a-peers', 'family-memory', 'full-template', 'ping-pong', 'sandbox', 'support-expert']);
    for (const e of EXAMPLES) expect(e.requests.steps.length).toBeGreaterThanOrEqual(5);
  });

  it('every openclaw.json belongs to an example gateway (so each one is booted and exercised)', () => {
    const declared = EXAMPLES.flatMap((e) => e.requests.gateways.map((g) => `${e.name}/${g.config}`)).sort();
    expect(configFiles().sort()).toEqual(declared);
  });

  it('examples/README.md links every example', () => {
    const index = readFileSync(path.join(EXAMPLES_DIR, 'README.md'), 'utf8');
    for (const e of EXAMPLES) expect(index).toContain(`](${e.name}/)`);
  });
});

describe.each(EXAMPLES.map((e) => [e.name, e] as const))('examples/%s', (_name, example) => {
  const { env, gateways, steps } = example.requests;

  it.each(gateways.map((g) => [g.config, g] as const))('%s loads with the README exports: no errors, the README port', async (_c, g) => {
    const result = await load(path.join(example.dir, g.config), env);
    if (!result.ok) throw new Error(`${g.config} did not load:\n${result.errors.map(formatConfigIssue).join('\n')}`);
    expect(result.snapshot.revision).toMatch(/^[0-9a-f]{12}$/);
    expect(result.snapshot.config.gateway.port).toBe(g.port);
    // Offline by default: no agent needs a network model.
    expect(result.snapshot.config.agents.map((a) => a.model.split('/')[0])).toEqual(result.snapshot.config.agents.map(() => 'echo'));
  });

  it.each(gateways.map((g) => [g.config, g] as const))('%s also loads with nothing set (unset secrets only warn)', async (_c, g) => {
    const result = await load(path.join(example.dir, g.config), {});
    expect(result.ok ? [] : result.errors.map(formatConfigIssue)).toEqual([]);
    const unset = Object.keys(env).filter((name) => readFileSync(path.join(example.dir, g.config), 'utf8').includes(`\${${name}}`));
    for (const name of unset)
      expect(result.warnings.map(formatConfigIssue).join('\n')).toContain(`environment variable ${name} is not set`);
  });

  it('the README shows how to start each gateway, with the exports it needs', () => {
    for (const g of gateways) expect(example.readme).toContain(renderStart(example, g));
    if (Object.keys(env).length) expect(example.readme).toContain(renderExports(env));
  });

  it('the README shows `config validate` for each config and exactly the warnings it prints', async () => {
    const printed: string[] = [];
    for (const g of gateways) {
      expect(example.readme).toContain(`node dist/cli.js config validate ${path.posix.join('examples', example.name, g.config)}`);
      const result = await load(path.join(example.dir, g.config), env);
      printed.push(...result.warnings.map((w) => `warning: ${formatConfigIssue(w)}`));
    }
    const shown = example.readme.split('\n').filter((l) => l.startsWith('warning: '));
    expect(shown).toEqual(printed);
  });

  it('the README shows every request with its expected output, as requests.json has it', () => {
    const missing = steps.map((s) => renderStep(example.requests, s)).filter((block) => !example.readme.includes(block));
    // On a mismatch the blocks to paste into the README are printed.
    expect(missing).toEqual([]);
  });
});

/** Keys the template leaves in comments, because setting them would change what the template does. */
const COMMENTED_IN_TEMPLATE: Record<string, string> = {
  // Paths relative to the config file would create directories next to it: the defaults stay in the state dir.
  'agents.defaults.workspace': '// workspace:',
  'agents.list[].workspace': '// workspace:',
  'agents.list[].agentDir': '// agentDir:',
  // The map form cannot be used together with agents.list.
  'agents.entries': '`entries: {',
  // Deprecated aliases: setting them only adds warnings.
  'bindings[].match.account': '`account` is the deprecated spelling of accountId',
  'memory.qmd.indexSessions': 'deprecated alias: indexSessions',
  // Set, the gateway would need a reachable Redis to start (the examples boot without one).
  'gateway.cluster': '// cluster: {',
  'gateway.cluster.redis': '//   redis: {',
  'gateway.cluster.redis.url': '//     url: "${REDIS_URL}"',
  'gateway.cluster.redis.password': '//     password: "${REDIS_PASSWORD}"',
  // Only read with bind "custom", which the template does not use.
  'gateway.customBindHost': '// customBindHost:',
  // Set, OpenClaw's auth would add an admin token (or replace admin.sso) beside the template's own.
  'gateway.auth': '// auth: {',
  'gateway.auth.mode': '//   mode: "token"',
  'gateway.auth.token': '//   token: "${OPENCLAW_GATEWAY_TOKEN}"',
  'gateway.auth.password': '//   password: "${OPENCLAW_GATEWAY_PASSWORD}"',
  'gateway.auth.trustedProxy': '//   trustedProxy: {',
  'gateway.auth.trustedProxy.userHeader': 'userHeader: "x-forwarded-user"',
  'gateway.auth.trustedProxy.allowLoopback': 'allowLoopback: false',
  // Set, OpenClaw's tool policy would change the tools the template's agents have.
  'agents.defaults.tools.profile': '//   tools: { profile: "coding", alsoAllow: ["a2a_send"] }',
  'agents.defaults.tools.alsoAllow': 'alsoAllow: ["a2a_send"] }',
  'agents.list[].tools.profile': 'profile: "coding"',
  'agents.list[].tools.alsoAllow': 'alsoAllow: ["a2a_send"]',
  'tools.profile': '//   profile: "coding", alsoAllow: ["a2a_send"], allow: ["group:fs"], deny: ["exec"],',
  'tools.alsoAllow': 'alsoAllow: ["a2a_send"], allow',
  'tools.allow': 'allow: ["group:fs"]',
  'tools.deny': 'deny: ["exec"],',
  // Set, they would narrow the tools of the template's sandboxed and spawned sessions.
  'agents.defaults.tools.sandbox': '//   tools: { sandbox: { tools: {',
  'agents.defaults.tools.sandbox.tools': 'sandbox: { tools: { allow: ["group:memory"]',
  'agents.defaults.tools.sandbox.tools.allow': 'allow: ["group:memory"]',
  'agents.defaults.tools.sandbox.tools.alsoAllow': 'alsoAllow: ["a2a_send"], deny: ["exec"] } } }',
  'agents.defaults.tools.sandbox.tools.deny': 'deny: ["exec"] } } }',
  'agents.list[].tools.sandbox': '//   tools: { sandbox: { tools: {',
  'agents.list[].tools.sandbox.tools': 'sandbox: { tools: { allow: ["group:memory"]',
  'agents.list[].tools.sandbox.tools.allow': 'allow: ["group:memory"]',
  'agents.list[].tools.sandbox.tools.alsoAllow': 'alsoAllow: ["a2a_send"], deny: ["exec"] } } }',
  'agents.list[].tools.sandbox.tools.deny': 'deny: ["exec"] } } }',
  'tools.sandbox': '//   sandbox: { tools: {',
  'tools.sandbox.tools': 'sandbox: { tools: { allow: ["group:fs"]',
  'tools.sandbox.tools.allow': 'allow: ["group:fs"], alsoAllow: ["sessions_list"]',
  'tools.sandbox.tools.alsoAllow': 'alsoAllow: ["sessions_list"]',
  'tools.sandbox.tools.deny': 'deny: ["write"] } },',
  'tools.subagents': '//   subagents: { tools: {',
  'tools.subagents.tools': 'subagents: { tools: { allow: ["group:sessions"]',
  'tools.subagents.tools.allow': 'allow: ["group:sessions"]',
  'tools.subagents.tools.deny': 'deny: ["sessions_spawn"] } },',
  // Set, an entry would name a plugin the template does not ship (a warning at every load).
  'plugins.entries': '//   entries: { greeter:',
  'plugins.entries.<name>.enabled': 'greeter: { enabled: true',
  'plugins.entries.<name>.config': 'config: { greeting: "hi" }',
};

describe('examples/full-template/openclaw.json', () => {
  const file = path.join(EXAMPLES_DIR, 'full-template', 'openclaw.json');
  const text = readFileSync(file, 'utf8');

  /** Dotted paths present in the document: arrays as `[]`, every object key literally. */
  function documentPaths(value: unknown, prefix: string, out: Set<string>): Set<string> {
    if (Array.isArray(value)) value.forEach((v) => documentPaths(v, `${prefix}[]`, out));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        const p = prefix ? `${prefix}.${k}` : k;
        out.add(p);
        documentPaths(v, p, out);
      }
    }
    return out;
  }

  it('sets every key of the config surface, or shows it in a comment where setting it would change the template', () => {
    const present = [...documentPaths(JSON5.parse(text), '', new Set())];
    const schemaKeys: string[] = [];
    walkSchemaProperties(buildConfigJsonSchema(), (p) => schemaKeys.push(p), {
      skip: new Set(['$include', '$schema']),
      entersMap: (entry) => Boolean(entry.properties || entry.additionalProperties),
    });
    expect(schemaKeys.length).toBeGreaterThan(100);
    const matches = (key: string) => {
      const pattern = new RegExp(`^${key.replace(/[.[\]]/g, (c) => `\\${c}`).replace(/<name>/g, '[^.]+')}$`);
      return present.some((p) => pattern.test(p));
    };
    const uncovered = schemaKeys.filter((k) => !matches(k) && !k.startsWith('agents.entries.'));
    expect(uncovered.sort()).toEqual(Object.keys(COMMENTED_IN_TEMPLATE).sort());
    for (const hint of Object.values(COMMENTED_IN_TEMPLATE)) expect(text).toContain(hint);
  });
});
