import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ConfigLoadError } from './config-issue';
import { INCLUDE_LIMITS, resolveIncludes } from './resolve-includes';

/** Real temp dirs: the resolver's security checks are about the real file system (symlinks). */
describe('resolveIncludes', () => {
  let base: string; // holds `cfg` (the config dir) and `outside` (must never be readable)
  let dir: string;
  let outside: string;

  beforeEach(async () => {
    base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-inc-')));
    dir = path.join(base, 'cfg');
    outside = path.join(base, 'outside');
    await fs.mkdir(dir);
    await fs.mkdir(outside);
  });
  afterEach(async () => {
    await fs.rm(base, { recursive: true, force: true });
  });

  async function write(rel: string, text: string, root = dir): Promise<string> {
    const file = path.join(root, rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, text);
    return file;
  }
  const root = () => path.join(dir, 'clawgate.json5');

  async function failure(text: string): Promise<ConfigLoadError> {
    await write('clawgate.json5', text);
    const err = await resolveIncludes(root()).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(err instanceof ConfigLoadError)) throw new Error(`expected ConfigLoadError, got ${String(err)}`);
    return err;
  }

  it('returns a document without includes unchanged', async () => {
    await write('clawgate.json5', '{ gateway: { port: 1 } }');
    const r = await resolveIncludes(root());
    expect(r.value).toEqual({ gateway: { port: 1 } });
    expect(r.files).toEqual([root()]);
    expect(r.includedPaths.size).toBe(0);
  });

  it('resolves a single include at the root', async () => {
    const agents = await write('agents.json5', '{ agents: { list: [{ id: "a" }] } }');
    await write('clawgate.json5', '{ $include: "./agents.json5", gateway: { port: 1 } }');
    const r = await resolveIncludes(root());
    expect(r.value).toEqual({ agents: { list: [{ id: 'a' }] }, gateway: { port: 1 } });
    expect(r.files).toEqual([root(), agents]);
    expect([...r.includedPaths]).toEqual([['agents', agents]]);
  });

  it('uses rootText instead of reading the root file', async () => {
    await write('a.json5', '{ a: 1 }');
    await write('clawgate.json5', '{ this is not read }');
    const r = await resolveIncludes(root(), '{ $include: "a.json5" }');
    expect(r.value).toEqual({ a: 1 });
  });

  it('merges an array of includes in order, later overriding earlier', async () => {
    const one = await write('one.json5', '{ x: 1, y: 1, nested: { a: 1, b: 1 } }');
    const two = await write('two.json5', '{ y: 2, nested: { b: 2 } }');
    await write('clawgate.json5', '{ $include: ["one.json5", "two.json5"] }');
    const r = await resolveIncludes(root());
    expect(r.value).toEqual({ x: 1, y: 2, nested: { a: 1, b: 2 } });
    expect(r.files).toEqual([root(), one, two]);
    expect(Object.fromEntries(r.includedPaths)).toEqual({ x: one, y: two, nested: two });
  });

  it('resolves an include nested inside `channels`', async () => {
    const a2a = await write('channels/a2a.json5', '{ a2a: { peers: {} } }');
    await write('clawgate.json5', '{ channels: { $include: "channels/a2a.json5", slack: { on: true } } }');
    const r = await resolveIncludes(root());
    expect(r.value).toEqual({ channels: { a2a: { peers: {} }, slack: { on: true } } });
    expect(Object.fromEntries(r.includedPaths)).toEqual({ 'channels.a2a': a2a });
  });

  it('lets siblings override included values, deep-merging objects and concatenating arrays', async () => {
    const inc = await write('base.json5', '{ name: "inc", list: [1, 2], obj: { a: 1, b: 1 }, keep: true, gone: { deep: 1 } }');
    await write('clawgate.json5', '{ $include: "base.json5", name: "root", list: [3], obj: { b: 2, c: 3 }, gone: null, extra: 1 }');
    const r = await resolveIncludes(root());
    expect(r.value).toEqual({
      name: 'root',
      list: [1, 2, 3],
      obj: { a: 1, b: 2, c: 3 },
      keep: true,
      gone: null,
      extra: 1,
    });
    expect(r.value).not.toHaveProperty('$include');
    // Only `keep` still comes purely from the included file.
    expect(Object.fromEntries(r.includedPaths)).toEqual({ keep: inc });
  });

  it('records includedPaths at every include site, attributing keys to the deepest file', async () => {
    const agents = await write('agents.json5', '{ agents: { list: [] } }');
    const mid = await write('mid.json5', '{ $include: "agents.json5", channels: { $include: "a2a.json5" }, models: {} }');
    const a2a = await write('a2a.json5', '{ a2a: { enabled: true } }');
    await write('clawgate.json5', '{ $include: "mid.json5" }');
    const r = await resolveIncludes(root());
    expect(r.value).toEqual({ agents: { list: [] }, channels: { a2a: { enabled: true } }, models: {} });
    expect(Object.fromEntries(r.includedPaths)).toEqual({
      agents,
      channels: mid,
      models: mid,
      'channels.a2a': a2a,
    });
    expect(r.files).toEqual([root(), mid, agents, a2a]);
  });

  it('keeps includedPaths indexes right when arrays are concatenated', async () => {
    const peer = await write('peer.json5', '{ id: "p" }');
    await write('base.json5', '{ list: [{ id: "x" }] }');
    await write('clawgate.json5', '{ $include: "base.json5", list: [{ $include: "peer.json5" }] }');
    const r = await resolveIncludes(root());
    expect(r.value).toEqual({ list: [{ id: 'x' }, { id: 'p' }] });
    expect(Object.fromEntries(r.includedPaths)).toEqual({ 'list[1].id': peer });
  });

  it('resolves paths relative to the directory of the file that contains the $include', async () => {
    const shared = await write('sub/shared/models.json5', '{ models: { providers: {} } }');
    await write('sub/agents.json5', '{ agents: {}, $include: "shared/models.json5" }');
    await write('clawgate.json5', '{ $include: "sub/agents.json5" }');
    const r = await resolveIncludes(root());
    expect(r.value).toEqual({ agents: {}, models: { providers: {} } });
    expect(r.includedPaths.get('models')).toBe(shared);
  });

  it('rejects escaping the config dir via ../', async () => {
    await write('secret.json5', '{ stolen: true }', outside);
    const err = await failure('{ channels: { $include: "../outside/secret.json5" } }');
    expect(err.issues).toEqual([
      {
        path: 'channels.$include',
        file: root(),
        message: '"$include" target ../outside/secret.json5 resolves outside the config directory',
      },
    ]);
  });

  it('rejects escaping the config dir via an absolute path', async () => {
    const secret = await write('secret.json5', '{ stolen: true }', outside);
    const err = await failure(`{ $include: ${JSON.stringify(secret)} }`);
    expect(err.issues[0].message).toBe(`"$include" target ${secret} resolves outside the config directory`);
    expect(err.issues[0].path).toBe('$include');
  });

  it('rejects a symlink inside the config dir that points outside', async () => {
    const secret = await write('secret.json5', '{ stolen: true }', outside);
    await fs.symlink(secret, path.join(dir, 'link.json5'));
    const err = await failure('{ $include: "link.json5" }');
    expect(err.issues[0].message).toBe('"$include" target link.json5 resolves outside the config directory');
  });

  it('accepts a symlink that stays inside the config dir', async () => {
    const real = await write('real/a.json5', '{ a: 1 }');
    await fs.symlink(real, path.join(dir, 'link.json5'));
    await write('clawgate.json5', '{ $include: "link.json5" }');
    const r = await resolveIncludes(root());
    expect(r.value).toEqual({ a: 1 });
    expect(r.files).toEqual([root(), real]);
  });

  it('reports a cycle of two files', async () => {
    await write('a.json5', '{ $include: "b.json5" }');
    const b = await write('b.json5', '{ nested: { $include: "a.json5" } }');
    const err = await failure('{ $include: "a.json5" }');
    expect(err.issues).toEqual([{ path: 'nested.$include', file: b, message: 'include cycle: a.json5 -> b.json5 -> a.json5' }]);
  });

  it('reports a file including itself', async () => {
    const a = await write('a.json5', '{ x: { $include: "./a.json5" } }');
    const err = await failure('{ $include: "a.json5" }');
    expect(err.issues).toEqual([{ path: 'x.$include', file: a, message: 'include cycle: a.json5 -> a.json5' }]);
  });

  it('allows the same file twice when it is not a cycle', async () => {
    const common = await write('common.json5', '{ v: 1 }');
    await write('clawgate.json5', '{ a: { $include: "common.json5" }, b: { $include: "common.json5" } }');
    const r = await resolveIncludes(root());
    expect(r.value).toEqual({ a: { v: 1 }, b: { v: 1 } });
    expect(r.files).toEqual([root(), common]);
  });

  /** root -> f1 -> ... -> f<levels>: the last file sits at depth `levels`. */
  async function chain(levels: number): Promise<void> {
    for (let i = 1; i <= levels; i++) {
      await write(`f${i}.json5`, i < levels ? `{ $include: "f${i + 1}.json5", d${i}: ${i} }` : `{ d${i}: ${i} }`);
    }
    await write('clawgate.json5', '{ $include: "f1.json5" }');
  }

  it(`accepts an include chain ${INCLUDE_LIMITS.maxDepth} levels deep`, async () => {
    await chain(10);
    const r = await resolveIncludes(root());
    expect((r.value).d10).toBe(10);
    expect(r.files).toHaveLength(11);
  });

  it('rejects an include chain 11 levels deep', async () => {
    await chain(11);
    const err = await resolveIncludes(root()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigLoadError);
    expect((err as ConfigLoadError).issues).toEqual([
      {
        path: '$include',
        file: path.join(dir, 'f10.json5'),
        message: '"$include" target f11.json5 is nested 11 levels deep; the limit is 10',
      },
    ]);
  });

  /** A valid document of exactly `size` bytes: `{ a: "xxx…" }`. */
  const docOfSize = (size: number) => `{ a: "${'x'.repeat(size - 9)}" }`;

  it('accepts an included file of exactly 2 MiB', async () => {
    await write('big.json5', docOfSize(INCLUDE_LIMITS.maxFileBytes));
    await write('clawgate.json5', '{ $include: "big.json5" }');
    const r = await resolveIncludes(root());
    expect((r.value as { a: string }).a.length).toBe(INCLUDE_LIMITS.maxFileBytes - 9);
  });

  it('rejects an included file of 2 MiB + 1 byte', async () => {
    await write('big.json5', docOfSize(INCLUDE_LIMITS.maxFileBytes + 1));
    expect((await fs.stat(path.join(dir, 'big.json5'))).size).toBe(2 * 1024 * 1024 + 1);
    const err = await failure('{ $include: "big.json5" }');
    expect(err.issues[0].message).toBe('included file big.json5 is 2097153 bytes; the limit is 2097152 bytes (2 MiB)');
  });

  it.each([
    ['a number', '42'],
    ['an array containing a non-string', '["a.json5", 1]'],
    ['an object', '{ file: "a.json5" }'],
    ['an empty string', '""'],
  ])('rejects a $include that is %s', async (_label, spec) => {
    const err = await failure(`{ gateway: { $include: ${spec} } }`);
    expect(err.issues).toEqual([
      {
        path: 'gateway.$include',
        file: root(),
        message: '"$include" must be a non-empty string or an array of non-empty strings',
      },
    ]);
  });

  it('reports a missing file, and keeps collecting issues from other branches', async () => {
    await write('list.json5', '[1, 2]');
    const err = await failure('{ a: { $include: "nope.json5" }, b: { $include: "list.json5" } }');
    expect(err.issues).toEqual([
      { path: 'a.$include', file: root(), message: '"$include" target nope.json5 does not exist' },
      { path: 'b.$include', file: root(), message: 'included file list.json5 must contain an object, got an array' },
    ]);
  });

  it('reports a syntax error in an included file with its position and the include site', async () => {
    const bad = await write('bad.json5', '{\n  a: 1,\n  b: ]\n}');
    const err = await failure('{ x: { $include: "bad.json5" } }');
    expect(err.issues).toEqual([{ path: 'x.$include', file: bad, line: 3, column: 6, message: "invalid character ']'" }]);
  });

  it('rejects a root document that is not an object', async () => {
    const err = await failure('[1]');
    expect(err.issues).toEqual([{ path: '', file: root(), message: 'the config must be an object, got an array' }]);
  });
});
