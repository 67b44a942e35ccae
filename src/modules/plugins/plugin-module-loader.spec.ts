import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadPluginModule } from './plugin-module-loader';

describe('loadPluginModule (real files)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'plugin-module-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  const write = async (name: string, text: string) => {
    const file = path.join(dir, name);
    await fs.writeFile(file, text);
    return file;
  };

  it('takes module.exports = { register } and a compiled `export default` alike', async () => {
    const plain = await write('plain.js', 'module.exports = { register() { return "plain"; } };');
    const compiled = await write('compiled.js', 'exports.__esModule = true; exports.default = { register() { return "compiled"; } };');
    expect((await loadPluginModule(plain)).register({} as never)).toBe('plain');
    expect((await loadPluginModule(compiled)).register({} as never)).toBe('compiled');
  });

  it('reads a CommonJS module afresh on each load (a plugin enabled again after an edit runs its new code)', async () => {
    const file = await write('index.js', 'module.exports = { register() { return 1; } };');
    expect((await loadPluginModule(file)).register({} as never)).toBe(1);
    await fs.writeFile(file, 'module.exports = { register() { return 2; } };');
    expect((await loadPluginModule(file)).register({} as never)).toBe(2);
  });

  it('a module without register(api) is an error naming the file', async () => {
    const file = await write('nothing.js', 'module.exports = { start() {} };');
    await expect(loadPluginModule(file)).rejects.toThrow(`${file} exports no register(api) function`);
  });
});
