import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LoadResult, RuntimeSnapshot } from '../config.types';
import { loadConfig } from './load-config';
import { INCLUDE_LIMITS } from './resolve-includes';

/** The whole pipeline on real files; each step has its own spec, this one checks how they are chained. */
describe('loadConfig', () => {
  let dir: string;
  let n = 0;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-load-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  async function load(text: string, env: NodeJS.ProcessEnv = {}, files: Record<string, string> = {}): Promise<LoadResult> {
    for (const [name, content] of Object.entries(files)) await fs.writeFile(path.join(dir, name), content);
    const configPath = path.join(dir, `openclaw-${n++}.json`);
    await fs.writeFile(configPath, text);
    return loadConfig({ configPath, stateDir: path.join(dir, 'state'), homeDir: dir, env, now: () => new Date('2026-01-01T00:00:00Z') });
  }
  async function ok(text: string, env: NodeJS.ProcessEnv = {}, files: Record<string, string> = {}): Promise<RuntimeSnapshot> {
    const r = await load(text, env, files);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return r.snapshot;
  }

  it('gives the same revision for the same config however it is written, and a new one for a real change', async () => {
    const a = await ok('{ agents: { list: [{ id: "main" }] }, tools: { sessions: { visibility: "all" } } }');
    const b = await ok(`// reformatted, reordered, commented
{
  tools: { sessions: { visibility: 'all', }, },
  "agents": { list: [ { id: "Main" } ] }, // same id after normalization
}`);
    const c = await ok('{ agents: { list: [{ id: "main" }] }, tools: { sessions: { visibility: "self" } } }');
    expect(a.revision).toMatch(/^[0-9a-f]{12}$/);
    expect(b.revision).toBe(a.revision);
    expect(c.revision).not.toBe(a.revision);
    // The content hash does see the text change: that is how a no-op write event is told from an edit.
    expect(b.contentHash).not.toBe(a.contentHash);
  });

  it('substitutes ${VAR} in the config but keeps the reference in the document', async () => {
    const s = await ok('{ channels: { a2a: { peers: { hermes: { token: "${T}" } } } } }', { T: 'secret-1' });
    expect(s.config.channels.a2a.peers.hermes.token).toBe('secret-1');
    expect(s.document).toEqual({ channels: { a2a: { peers: { hermes: { token: '${T}' } } } } });
  });

  it('freezes the snapshot config so no service can change it in place', async () => {
    const s = await ok('{ agents: { list: [{ id: "main", tools: { allow: ["sessions_send"] } }] } }');
    expect(Object.isFrozen(s.config)).toBe(true);
    expect(Object.isFrozen(s.config.agents[0].tools.allow)).toBe(true);
    expect(() => (s.config.agents as unknown[]).push({})).toThrow(TypeError);
    expect(s.agentsById.get('main')).toBe(s.config.agents[0]);
    expect(s.loadedAt.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('lists every file read and which keys came from an include', async () => {
    const s = await ok('{ $include: "agents.json5", tools: {} }', {}, { 'agents.json5': '{ agents: { list: [{ id: "a" }] } }' });
    const real = await fs.realpath(path.join(dir, 'agents.json5'));
    expect(s.files).toHaveLength(2);
    expect(s.files[1]).toBe(real);
    expect(s.includedPaths.get('agents')).toBe(real);
    expect(s.includedPaths.has('tools')).toBe(false);
  });

  it('returns (never throws) the errors of whichever step failed, with warnings collected so far', async () => {
    const parse = await load('{ agents: ');
    expect(parse.ok).toBe(false);
    if (!parse.ok) expect(parse.errors[0]).toEqual(expect.objectContaining({ line: 1, file: expect.stringContaining('openclaw-') }));

    const env = await load('{ gateway: { publicUrl: "${URL}" }, channels: { a2a: { peers: { p: { token: "${P}" } } } } }');
    expect(env.ok ? [] : env.errors.map((e) => e.path)).toEqual(['gateway.publicUrl']);
    expect(env.warnings.map((w) => w.path)).toEqual(['channels.a2a.peers.p.token']);

    const validation = await load('{ gateway: { prot: 1 } }');
    expect(validation.ok ? [] : validation.errors.map((e) => e.message)).toEqual(['unknown key (did you mean "port"?)']);

    const normalization = await load('{ agents: { list: [{ id: "a" }, { id: "A" }] } }');
    expect(normalization.ok ? [] : normalization.errors.map((e) => e.path)).toEqual(['agents.list[1].id']);
  });

  it('never quotes a value that came from ${VAR}, in validation or normalization errors and in warnings', async () => {
    const env = { URL: 'not-a-url-env-value-1', PROXY: 'proxy-env-value-2', AGENT: 'agent-env-value-3', EXPOSED: 'exposed-env-value-4' };
    const r = await load(
      `{ gateway: { publicUrl: "\${URL}", trustedProxies: ["\${PROXY}"] } }`,
      env,
    );
    expect(r.ok ? [] : r.errors).toEqual([
      { path: 'gateway.trustedProxies', message: 'the value of ${PROXY}: not an IP address or CIDR block (e.g. 10.0.0.0/8, ::1)' },
      { path: 'gateway.publicUrl', message: 'must be a URL address (got the value of ${URL})' },
    ]);
    const n = await load(`{ agents: { list: [{ id: "main" }] }, bindings: [{ agentId: "\${AGENT}", match: { channel: "http" } }] }`, env);
    expect(n.ok ? [] : n.errors.map((e) => e.message)).toEqual(['unknown agent the value of ${AGENT}']);
    const w = await ok(`{ agents: { list: [{ id: "main" }] }, channels: { a2a: { exposeAgents: ["main", "\${EXPOSED}"] } } }`, env);
    expect(w.warnings.map((i) => i.message)).toEqual(['unknown agent the value of ${EXPOSED} is not published']);
    expect(JSON.stringify([r, n, w.warnings])).not.toMatch(/env-value/);
  });

  it('validates rootText instead of the file when given (POST /admin/config/validate)', async () => {
    const configPath = path.join(dir, 'openclaw.json');
    await fs.writeFile(configPath, '{ agents: { list: [{ id: "on-disk" }] } }');
    const r = await loadConfig({ configPath, stateDir: dir, homeDir: dir, env: {}, rootText: '{ agents: { list: [{ id: "posted" }] } }' });
    expect(r.ok && r.snapshot.config.agents.map((a) => a.id)).toEqual(['posted']);
  });

  it('reports a missing or oversized file by name', async () => {
    const missing = await loadConfig({ configPath: path.join(dir, 'none.json'), stateDir: dir, homeDir: dir, env: {} });
    expect(missing.ok ? [] : missing.errors).toEqual([expect.objectContaining({ message: 'config file not found' })]);

    const big = path.join(dir, 'big.json');
    await fs.writeFile(big, `{ "$schema": "${'x'.repeat(INCLUDE_LIMITS.maxFileBytes)}" }`);
    const tooBig = await loadConfig({ configPath: big, stateDir: dir, homeDir: dir, env: {} });
    expect(tooBig.ok ? '' : tooBig.errors[0].message).toMatch(/larger than 2097152 bytes/);
  });
});
