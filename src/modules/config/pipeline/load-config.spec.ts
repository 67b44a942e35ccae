import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LoadResult, RuntimeSnapshot } from '../config.types';
import { statStamp } from './file-stamp';
import { loadConfig } from './load-config';
import { MAX_NESTING_DEPTH } from './nesting-limit';
import { RESERVED_KEY_MESSAGE } from './reserved-keys';
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

  it('reads gateway.port from "${PORT:-default}", the variable or else the default, as the number', async () => {
    expect((await ok('{ gateway: { port: "${PORT:-18789}" } }')).config.gateway.port).toBe(18789);
    expect((await ok('{ gateway: { port: "${PORT:-18789}" } }', { PORT: '8080' })).config.gateway.port).toBe(8080);
    const wrong = await load('{ gateway: { port: "${PORT}" } }', { PORT: 'eighty' });
    expect(wrong.ok ? [] : wrong.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      'gateway.port: must be an integer number (got the value of ${PORT})',
    ]);
  });

  it('says what to configure for a binding to a chat channel whose plugin does not run, and nothing once it runs', async () => {
    const binding = 'bindings: [{ agentId: "a", match: { channel: "telegram" } }, { agentId: "a", match: { channel: "fax" } }]';
    const off = await ok(`{ agents: { list: [{ id: "a" }] }, ${binding} }`);
    expect(off.warnings.map((w) => `${w.path}: ${w.message}`)).toEqual([
      'bindings[0].match.channel: channel "telegram" is provided by plugin telegram, which does not run (activated by its channel: ' +
        'none of channels.telegram is configured); the binding is kept but receives nothing until it does',
      'bindings[1].match.channel: no adapter for channel "fax" in this gateway; the binding is kept but receives nothing',
    ]);
    const on = await ok(`{ agents: { list: [{ id: "a" }] }, channels: { telegram: { botToken: "1:x" } }, ${binding} }`);
    expect(on.warnings.map((w) => w.path)).toEqual(['bindings[1].match.channel']);
  });

  it('reads the spellings OpenClaw retired as their current form, with warnings', async () => {
    const s = await ok(
      '{ agents: { list: [{ id: "a" }] }, gateway: { reload: { mode: "restart" } }, bindings: [{ agentId: "a", match: { provider: "http" } }] }',
    );
    expect(s.config.gateway.reload.mode).toBe('hybrid');
    expect(s.config.bindings[0].match.channel).toBe('http');
    expect(s.warnings.map((w) => w.path)).toEqual(['gateway.reload.mode', 'bindings[0].match.provider']);
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

  it('stamps every file it read (and the root as given) with the stat taken before the read', async () => {
    const s = await ok('{ $include: "agents.json5" }', {}, { 'agents.json5': '{ agents: { list: [{ id: "a" }] } }' });
    const [root, fragment] = s.files;
    expect([...s.fileStamps.keys()].sort()).toEqual([root, fragment].sort());
    // Unchanged files: the stamp is what a stat gives now.
    expect(s.fileStamps.get(root)).toBe(await statStamp(root));
    expect(s.fileStamps.get(fragment)).toBe(await statStamp(fragment));
    // A chmod (ctime), an in-place write (size, mtime) and a rename-over (inode) each give another stamp.
    const before = await statStamp(fragment);
    await fs.chmod(fragment, 0o600);
    const chmodded = await statStamp(fragment);
    await fs.writeFile(fragment, '{ agents: { list: [{ id: "b" }] } }');
    const written = await statStamp(fragment);
    await fs.writeFile(`${fragment}.tmp`, '{ agents: { list: [{ id: "b" }] } }');
    await fs.rename(`${fragment}.tmp`, fragment);
    const renamed = await statStamp(fragment);
    expect(new Set([before, chmodded, written, renamed]).size).toBe(4);
    expect(await statStamp(path.join(dir, 'gone.json5'))).toBe('missing:ENOENT');
  });

  it('stamps a symlinked root under both names: as given (what a re-pointed link changes) and as resolved', async () => {
    await fs.writeFile(path.join(dir, 'real.json'), '{}');
    const configPath = path.join(dir, 'link.json');
    await fs.symlink('real.json', configPath);
    const r = await loadConfig({ configPath, stateDir: dir, homeDir: dir, env: {} });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const real = await fs.realpath(path.join(dir, 'real.json'));
    expect(r.snapshot.files).toEqual([real]);
    expect([...r.snapshot.fileStamps.keys()].sort()).toEqual([configPath, real].sort());
    expect(r.snapshot.fileStamps.get(configPath)).toBe(await statStamp(real));
    expect(r.snapshot.fileStamps.get(real)).toBe(await statStamp(real));
  });

  it('watches a symlinked include under both names: as written (what a re-pointed link changes) and as resolved', async () => {
    await fs.mkdir(path.join(dir, 'v1'));
    await fs.writeFile(path.join(dir, 'v1', 'agents.json5'), '{ agents: { list: [{ id: "a" }] } }');
    await fs.symlink(path.join('v1', 'agents.json5'), path.join(dir, 'agents.json5'));
    const s = await ok('{ $include: "agents.json5" }');
    const real = await fs.realpath(path.join(dir, 'v1', 'agents.json5'));
    const written = path.join(await fs.realpath(dir), 'agents.json5');
    expect(s.files).toEqual([s.files[0], real]);
    expect(s.watchPaths).toEqual([path.resolve(s.configPath), s.files[0], written, real].filter((p, i, all) => all.indexOf(p) === i));
    expect([...s.fileStamps.keys()].sort()).toEqual([...s.watchPaths].sort());
    expect(s.fileStamps.get(written)).toBe(await statStamp(real));
  });

  it('has no stamp for a root given as text (nothing was read)', async () => {
    const r = await loadConfig({ configPath: path.join(dir, 'openclaw.json'), stateDir: dir, homeDir: dir, env: {}, rootText: '{}' });
    expect(r.ok && r.snapshot.fileStamps.size).toBe(0);
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
    const env = {
      URL: 'not-a-url-env-value-1',
      PROXY: 'proxy-env-value-2',
      AGENT: 'agent-env-value-3',
      EXPOSED: 'exposed-env-value-4',
      NEAR: 'env-value-agent-5',
    };
    const r = await load(
      `{ gateway: { publicUrl: "\${URL}", trustedProxies: ["\${PROXY}"] } }`,
      env,
    );
    expect(r.ok ? [] : r.errors).toEqual([
      { path: 'gateway.trustedProxies', message: 'the value of ${PROXY}: not an IP address or CIDR block (e.g. 10.0.0.0/8, ::1)' },
      { path: 'gateway.publicUrl', message: 'must be a URL address (got the value of ${URL})' },
    ]);
    // A binding to an agent id close to an existing one is an error with did-you-mean; one far from all goes to the
    // default agent with a warning. Both name the variable.
    const n = await load(
      `{ agents: { list: [{ id: "main" }, { id: "env-valu-agent-5" }] }, bindings: [{ agentId: "\${NEAR}", match: { channel: "http" } }] }`,
      env,
    );
    expect(n.ok ? [] : n.errors.map((e) => e.message)).toEqual(['unknown agent the value of ${NEAR} (did you mean "env-valu-agent-5"?)']);
    const d = await ok(`{ agents: { list: [{ id: "main" }] }, bindings: [{ agentId: "\${AGENT}", match: { channel: "http" } }] }`, env);
    expect(d.warnings.map((i) => i.message)).toEqual([
      'no agent the value of ${AGENT}: the binding routes to the default agent "main", as OpenClaw routes it',
    ]);
    const w = await ok(`{ agents: { list: [{ id: "main" }] }, channels: { a2a: { exposeAgents: ["main", "\${EXPOSED}"] } } }`, env);
    expect(w.warnings.map((i) => i.message)).toEqual(['unknown agent the value of ${EXPOSED} is not published']);
    expect(JSON.stringify([r, n, d.warnings, w.warnings])).not.toMatch(/env-value/);
  });

  it('loads a provider whose ${VAR} baseUrl is no URL as unusable, naming the variable; a literal one stays an error', async () => {
    const env = { IMAGE_API_URL: 'images-backend.internal', GOOD_URL: 'http://127.0.0.1:9/v1' };
    const snapshot = await ok(
      `{ models: { providers: { openai: { baseUrl: "\${IMAGE_API_URL}", apiKey: "k" }, good: { baseUrl: "\${GOOD_URL}" } } },
         agents: { list: [{ id: "main", model: "openai/gpt-x" }] } }`,
      env,
    );
    const openai = snapshot.config.models.providers.openai;
    // Never the built-in provider's URL in its place: the key would go to a server the file did not name.
    expect(openai.baseUrl).toBeUndefined();
    expect(openai.unusable).toBe(
      'model provider openai cannot be called: its baseUrl, the value of ${IMAGE_API_URL}, is not an http(s) URL (models.providers.openai.baseUrl)',
    );
    expect(snapshot.config.models.providers.good).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1' });
    expect(snapshot.config.models.providers.good.unusable).toBeUndefined();
    expect(snapshot.warnings).toContainEqual({
      path: 'models.providers.openai.baseUrl',
      message: 'the value of ${IMAGE_API_URL} is not an http(s) URL: provider openai cannot be called until it is, and a run whose model is on it goes on to its fallbacks',
    });
    expect(JSON.stringify(snapshot.warnings)).not.toContain('images-backend');

    const literal = await load('{ models: { providers: { openai: { baseUrl: "images-backend.internal" } } } }');
    expect(literal.ok ? [] : literal.errors.map((e) => e.path)).toEqual(['models.providers.openai.baseUrl']);
  });

  describe('OpenClaw settings clawgate does not use', () => {
    const OPENCLAW_FILE = `{
      meta: { lastTouchedVersion: "2026.4.1" },
      commands: { native: "auto" },
      gateway: { port: 18789, controlUi: { enabled: true } },
      agents: { defaults: { model: "echo/default", compaction: { mode: "safeguard" } }, list: [{ id: "main", subagents: { allowAgents: ["*"] } }] },
      channels: { signal: { account: "\${SIGNAL_NUMBER}" }, whatsapp: { allowFrom: ["\${OWNER_PHONE}"] } },
    }`;

    it('loads the file with one warning per section, and keeps the settings in the document', async () => {
      const r = await load(OPENCLAW_FILE);
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      expect(r.warnings.map((w) => `${w.path}: ${w.message}`)).toEqual([
        ': recognised OpenClaw settings, not supported by clawgate (2): meta, commands',
        'gateway: recognised OpenClaw setting, not supported by clawgate: gateway.controlUi',
        'agents: recognised OpenClaw settings, not supported by clawgate (2): agents.defaults.compaction, agents.list[0].subagents.allowAgents',
        'channels.signal: no plugin provides channel signal: its settings are not used',
        'channels.whatsapp: no plugin provides channel whatsapp: its settings are not used',
      ]);
      // Neither variable is set: a setting clawgate never reads needs none of its variables.
      expect(r.snapshot.warnings).toEqual(r.warnings);
      expect(r.snapshot.config.agents.map((a) => a.id)).toEqual(['main']);
      expect((r.snapshot.document as { commands?: unknown }).commands).toEqual({ native: 'auto' });
    });

    // (Telegram, Discord and Slack are not among them: bundled plugins provide them, so their variables are read.)
    it('gives the same revision with or without them: they change nothing clawgate runs', async () => {
      const bare = await ok('{ gateway: { port: 18789 }, agents: { defaults: { model: "echo/default" }, list: [{ id: "main" }] } }');
      const r = await load(OPENCLAW_FILE);
      expect(r.ok && r.snapshot.revision).toBe(bare.revision);
    });

    it('still refuses a file whose only unknown keys are typos OpenClaw does not know either', async () => {
      const r = await load('{ gateway: { prot: 18789 }, agents: { defaults: { compactoin: {} } }, hoks: {} }');
      expect(r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
        'gateway.prot: unknown key (did you mean "port"?)',
        'agents.defaults.compactoin: unknown key (did you mean "compaction"?)',
        'hoks: unknown key (did you mean "hooks"?)',
      ]);
      expect(r.warnings).toEqual([]);
    });

    it('reports refused settings and typos inside recognised ones together with the schema errors', async () => {
      // (gateway.tls is implemented now: a refused setting is one whose ignoring would be unsafe.)
      const r = await load('{ gateway: { auth: { trustedProxy: { userHeader: "x-user", allowUsers: ["ann"] } }, prot: 1 }, messages: { ackReactoinScope: "all" } }');
      expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual(['gateway.auth.trustedProxy.allowUsers', 'messages.ackReactoinScope', 'gateway.prot']);
      expect(r.warnings.map((w) => w.message)).toEqual(['recognised OpenClaw setting, not supported by clawgate: messages']);
    });
  });

  it('validates rootText instead of the file when given (POST /admin/config/validate)', async () => {
    const configPath = path.join(dir, 'openclaw.json');
    await fs.writeFile(configPath, '{ agents: { list: [{ id: "on-disk" }] } }');
    const r = await loadConfig({ configPath, stateDir: dir, homeDir: dir, env: {}, rootText: '{ agents: { list: [{ id: "posted" }] } }' });
    expect(r.ok && r.snapshot.config.agents.map((a) => a.id)).toEqual(['posted']);
  });

  describe('documents the schema classes cannot hold', () => {
    const errorsOf = (r: LoadResult) => (r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`));
    const reserved = (p: string) => `${p}: ${RESERVED_KEY_MESSAGE}`;
    const chain = (levels: number, open: string, close: string, inner = '1') => open.repeat(levels) + inner + close.repeat(levels);

    it('rejects a key named constructor in a string map instead of crashing in the validator', async () => {
      expect(errorsOf(await load('{ gateway: { admin: { sso: { roleMapping: { constructor: "admin" } } } } }'))).toEqual([
        reserved('gateway.admin.sso.roleMapping.constructor'),
      ]);
      expect(errorsOf(await load('{ models: { providers: { local: { api: "echo", headers: { constructor: "x" } } } } }'))).toEqual([
        reserved('models.providers.local.headers.constructor'),
      ]);
    });

    it('rejects 20,000 levels of nesting, naming the path where the limit is exceeded and the file', async () => {
      const objects = await load(`{ agents: ${chain(20_000, '{ a: ', ' }')} }`);
      const arrays = await load(`{ bindings: ${chain(20_000, '[', ']')} }`);
      const deepest = (first: string, seg: string) => [first, ...Array<string>(MAX_NESTING_DEPTH - 1).fill(seg)].join('');
      expect(objects.ok ? [] : objects.errors).toEqual([
        {
          path: deepest('agents', '.a'),
          file: expect.stringContaining('openclaw-'),
          message: `nested too deeply: objects and arrays may nest at most ${MAX_NESTING_DEPTH} levels`,
        },
      ]);
      expect(arrays.ok ? [] : arrays.errors.map((e) => e.path)).toEqual([deepest('bindings', '[0]')]);
    });

    it('counts the nesting of an included file from its $include and names that file', async () => {
      // The include site `agents` is level 2, so the file may add 62 levels below its own root object.
      const fits = await load('{ agents: { $include: "deep.json5" } }', {}, { 'deep.json5': `{ a: ${chain(62, '{ a: ', ' }')} }` });
      expect(errorsOf(fits)).toEqual(['agents.a: unknown key']);
      const over = await load('{ agents: { $include: "deep.json5" } }', {}, { 'deep.json5': `{ a: ${chain(63, '{ a: ', ' }')} }` });
      expect(over.ok ? [] : over.errors).toEqual([
        expect.objectContaining({ path: `agents${'.a'.repeat(63)}`, file: path.join(await fs.realpath(dir), 'deep.json5') }),
      ]);
    });

    it('rejects __proto__ keys with their path instead of dropping them', async () => {
      const r = await load(`{
        agents: { list: [{ id: "main" }] },
        bindings: [{ agentId: "main", match: { channel: "http", __proto__: { accountId: "*" } } }],
      }`);
      expect(errorsOf(r)).toEqual([reserved('bindings[0].match.__proto__')]);
      expect(errorsOf(await load('{ __proto__: { gateway: { port: 1 } } }'))).toEqual([reserved('__proto__')]);
      expect(errorsOf(await load('{ $include: "part.json5" }', {}, { 'part.json5': '{ tools: { "__proto__": {} } }' }))).toEqual([
        reserved('tools.__proto__'),
      ]);
    });

    it('rejects map entries named after built-in object properties instead of dropping them', async () => {
      const r = await load(`{
        channels: {
          a2a: { peers: { constructor: { token: "t1" }, toString: { token: "t2" }, ok: { token: "t3" } } },
          http: { accounts: { valueOf: { token: "t4" } } },
        },
        models: { providers: { hasOwnProperty: { api: "echo" } } },
        agents: { entries: { __proto__: {}, isPrototypeOf: {} } },
        tools: { toString: {} },
      }`);
      expect(errorsOf(r)).toEqual([
        reserved('channels.a2a.peers.constructor'),
        reserved('channels.a2a.peers.toString'),
        reserved('channels.http.accounts.valueOf'),
        reserved('models.providers.hasOwnProperty'),
        reserved('agents.entries.__proto__'),
        reserved('agents.entries.isPrototypeOf'),
        reserved('tools.toString'),
      ]);
    });

    it('keeps map entries whose names are members of Map (get, keys, size, ...) as written', async () => {
      // (forEach too, but peer and account names are lowercase)
      const names = ['get', 'set', 'has', 'delete', 'clear', 'keys', 'values', 'entries', 'size'];
      const map = (entry: (name: string, i: number) => string) => `{ ${names.map((n, i) => `${n}: ${entry(n, i)}`).join(', ')} }`;
      const s = await ok(`{
        agents: { entries: ${map(() => '{}')} },
        channels: { a2a: { peers: ${map((_, i) => `{ token: "p${i}" }`)} }, http: { accounts: ${map((_, i) => `{ token: "h${i}" }`)} } },
        models: { providers: ${map(() => '{ api: "echo" }')} },
      }`);
      expect(s.config.agents.map((a) => a.id)).toEqual(names);
      expect(Object.keys(s.config.channels.a2a.peers)).toEqual(names);
      expect(Object.keys(s.config.channels.http.accounts)).toEqual(names);
      expect(Object.keys(s.config.models.providers)).toEqual(expect.arrayContaining(names));
    });

    it('rejects an array where an object belongs instead of crashing in normalization', async () => {
      expect(errorsOf(await load('{ bindings: [[{ agentId: "main", match: { channel: "http" } }]] }'))).toEqual([
        'bindings[0]: must be an object (got an array)',
      ]);
      expect(errorsOf(await load('{ memory: { qmd: { paths: [[{ path: "notes" }]] } } }'))).toEqual([
        'memory.qmd.paths[0]: must be an object (got an array)',
      ]);
    });

    it('does not take a built-in object property for a model provider', async () => {
      expect(errorsOf(await load('{ agents: { list: [{ id: "main", model: "constructor/x" }] } }'))).toEqual([
        expect.stringMatching(/^agents\.list\[0\]\.model: unknown model provider "constructor"/),
      ]);
    });
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
