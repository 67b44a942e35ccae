import { execFile } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** A consumer of the package: an in-code plugin, the gateway started from code, its route and /admin/plugins read. */
const CONSUMER = `
import { definePlugin, startGateway, type StartGatewayOptions } from 'clawgate';
import type { PluginApi, PluginHttpRequest } from 'clawgate/plugin-sdk';
import { AppError, ErrorCode } from 'clawgate/plugin-sdk';

const hello = definePlugin({
  id: 'hello',
  version: '1.0.0',
  register(api: PluginApi) {
    api.registerHttpRoute({
      method: 'GET',
      path: '/greet/:name',
      auth: 'public',
      handle: (req: PluginHttpRequest & { params: Record<string, string> }) => {
        if (req.params.name === 'nobody') throw new AppError(ErrorCode.NotFound, 'nobody to greet');
        return { body: { hello: req.params.name, plugin: api.id } };
      },
    });
  },
});

/** Never called: it only has to fail to compile where the SDK's types say so (were they \`any\`, tsc would flag the unused expectation). */
export function typed(api: PluginApi): void {
  // @ts-expect-error a tool without execute does not compile
  api.registerTool({ name: 'x', description: 'x', parameters: {} });
}

async function main(): Promise<void> {
  const options: StartGatewayOptions = {
    configPath: process.argv[2],
    stateDir: process.argv[3],
    port: 0,
    env: {},
    logLevel: 'error',
    plugins: [hello],
  };
  const gateway = await startGateway(options);
  try {
    const greet = await fetch(gateway.url + '/plugins/hello/greet/ada');
    const nobody = await fetch(gateway.url + '/plugins/hello/greet/nobody');
    const esm = await fetch(gateway.url + '/plugins/esm-hello/');
    const admin = await fetch(gateway.url + '/admin/plugins/hello');
    const record = (await admin.json()) as { status: string; errors: string[] };
    console.log(
      JSON.stringify({ greet: await greet.json(), nobody: nobody.status, esm: await esm.text(), status: record.status, errors: record.errors }),
    );
  } finally {
    await gateway.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
`;

/**
 * The package as a consumer gets it: `npm pack` of this project (dist/ must be built: `npm run build`), unpacked into
 * a new project's node_modules with its dependencies linked from this one (no registry), a TypeScript consumer
 * compiled by tsc against the shipped declarations and the `exports` map (moduleResolution node16), then run: a
 * gateway with an in-code plugin whose route answers.
 */
describe('clawgate as a library: the packed package (e2e)', () => {
  let dir: string;

  beforeAll(async () => {
    for (const built of ['dist/index.js', 'dist/index.d.ts', 'dist/plugin-sdk/index.d.ts']) {
      if (!existsSync(path.join(ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` before this suite`);
    }
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-consumer-'));
  });
  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('packs, installs offline, compiles against the shipped types and runs a gateway with an in-code plugin', async () => {
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, maxBuffer: 64 << 20 });
    const [{ filename, files }] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const shipped = files.map((f) => f.path);
    expect(shipped).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/plugin-sdk/index.d.ts', 'dist/cli.js']));
    expect(shipped.filter((p) => p.startsWith('src/') || p.startsWith('test/'))).toEqual([]);

    // The install: the tarball unpacked as node_modules/clawgate, its dependencies linked from this project's.
    const modules = path.join(dir, 'node_modules');
    await fs.mkdir(path.join(modules, 'clawgate'), { recursive: true });
    await run('tar', ['xzf', path.join(dir, filename), '-C', path.join(modules, 'clawgate'), '--strip-components=1']);
    for (const name of await fs.readdir(path.join(ROOT, 'node_modules'))) {
      if (name === 'clawgate' || name.startsWith('.')) continue;
      await fs.symlink(path.join(ROOT, 'node_modules', name), path.join(modules, name));
    }

    await fs.writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'commonjs' }));
    await fs.writeFile(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'node16',
          moduleResolution: 'node16',
          target: 'ES2022',
          strict: true,
          skipLibCheck: true,
          types: ['node'],
          outDir: 'out',
        },
        files: ['main.ts'],
      }),
    );
    await fs.writeFile(path.join(dir, 'main.ts'), CONSUMER);
    await run(process.execPath, [TSC, '-p', dir], { cwd: dir }).catch((err: { stdout?: string }) => {
      throw new Error(`tsc failed:\n${err.stdout}`);
    });

    // Beside the plugin given in code, one found on disk as an ES module (its default export), as Node.js imports it.
    const esm = path.join(dir, 'plugins', 'esm-hello');
    await fs.mkdir(esm, { recursive: true });
    await fs.writeFile(
      path.join(esm, 'clawgate.plugin.json'),
      JSON.stringify({ id: 'esm-hello', version: '0.1.0', configSchema: { type: 'object' } }),
    );
    await fs.writeFile(
      path.join(esm, 'index.mjs'),
      'export default { register(api) { api.registerHttpRoute({ method: "GET", path: "/", auth: "public", handle: () => ({ body: "esm" }) }); } };\n',
    );
    await fs.writeFile(path.join(esm, 'package.json'), JSON.stringify({ name: 'esm-hello', main: 'index.mjs' }));
    for (const file of await fs.readdir(esm)) await fs.chmod(path.join(esm, file), 0o644);
    await fs.chmod(esm, 0o755);
    await fs.chmod(path.join(dir, 'plugins'), 0o755);
    const configPath = path.join(dir, 'openclaw.json');
    await fs.writeFile(configPath, '{ agents: { list: [{ id: "main" }] }, plugins: { load: { paths: ["./plugins"] } } }');
    const { stdout } = await run(process.execPath, [path.join(dir, 'out', 'main.js'), configPath, path.join(dir, 'state')], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir },
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1) as string)).toEqual({
      greet: { hello: 'ada', plugin: 'hello' },
      nobody: 404,
      esm: 'esm',
      status: 'active',
      errors: [],
    });
    // Packing, compiling and booting in a child process take minutes on a busy machine.
  }, 300_000);
});
