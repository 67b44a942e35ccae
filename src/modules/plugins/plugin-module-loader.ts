import { existsSync, readFileSync, realpathSync } from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginDefinition } from '../../plugin-sdk';

/**
 * `import()` as Node.js runs it. Written through `Function` because this file is compiled to CommonJS, where tsc
 * would turn a plain `import()` into `require`, which an ES module with top-level await cannot go through.
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the one way to keep import() through tsc's CommonJS output
const nativeImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<Record<string, unknown>>;

/** Each load of an ES module gets a new URL: Node.js keeps an imported module for good, and a reload must read the file again. */
let esmLoads = 0;

/**
 * The plugin's definition from its entry module: CommonJS `module.exports` (or its `default`, as TypeScript emits an
 * `export default`) or an ES module's default export, an object with `register(api)`. The entry is read afresh on
 * each load, so that a plugin enabled again after an edit runs its new code.
 */
export async function loadPluginModule(entryFile: string): Promise<PluginDefinition> {
  let exported: unknown;
  if (isEsModule(entryFile)) {
    const namespace = await nativeImport(`${pathToFileURL(entryFile).href}?load=${++esmLoads}`);
    exported = namespace.default;
  } else {
    exported = unwrapDefault(compileCommonJs(realpathSync(entryFile)));
  }
  if (!isDefinition(exported)) {
    throw new Error(
      `${entryFile} exports no register(api) function: expected module.exports = { register(api) { … } } or an ES module's export default`,
    );
  }
  return exported;
}

/** Node.js' own CommonJS loader internals this file uses (stable since Node.js 0.x; `module.createRequire` is built on them). */
type NodeModule = Module & { _compile(source: string, filename: string): void };
const moduleStatics = Module as unknown as { _nodeModulePaths(dir: string): string[] };

/**
 * The entry module compiled as `require` would, but outside the require cache: each load runs the file as it is now
 * (deleting a cache entry is not enough where the loader is not Node.js' own, as under a test runner). What the entry
 * requires in turn (its own files, its dependencies) loads through Node.js' require as usual.
 */
function compileCommonJs(file: string): unknown {
  const mod = new Module(file) as NodeModule;
  mod.filename = file;
  mod.paths = moduleStatics._nodeModulePaths(path.dirname(file));
  mod._compile(readFileSync(file, 'utf8'), file);
  mod.loaded = true;
  return mod.exports;
}

function unwrapDefault(value: unknown): unknown {
  if (isDefinition(value)) return value;
  const withDefault = value as { default?: unknown } | undefined;
  return withDefault && typeof withDefault === 'object' ? withDefault.default : undefined;
}

function isDefinition(value: unknown): value is PluginDefinition {
  return !!value && typeof value === 'object' && typeof (value as { register?: unknown }).register === 'function';
}

/** `.mjs`, or `.js` under a package.json with `"type": "module"`, as Node.js decides. */
function isEsModule(file: string): boolean {
  if (file.endsWith('.mjs')) return true;
  if (file.endsWith('.cjs') || !file.endsWith('.js')) return false;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        return (JSON.parse(readFileSync(pkg, 'utf8')) as { type?: unknown }).type === 'module';
      } catch {
        return false;
      }
    }
    if (path.dirname(dir) === dir) return false;
  }
}
