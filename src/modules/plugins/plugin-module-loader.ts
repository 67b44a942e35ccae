import { existsSync, readFileSync } from 'node:fs';
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
 * `export default`) or an ES module's default export, an object with `register(api)`. A CommonJS module is read
 * afresh (its cache entry dropped) so that a plugin enabled again after an edit runs its new code.
 */
export async function loadPluginModule(entryFile: string): Promise<PluginDefinition> {
  let exported: unknown;
  if (isEsModule(entryFile)) {
    const namespace = await nativeImport(`${pathToFileURL(entryFile).href}?load=${++esmLoads}`);
    exported = namespace.default;
  } else {
    const resolved = require.resolve(entryFile);
    delete require.cache[resolved];
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a plugin's entry is known only at run time
    const required: unknown = require(resolved);
    exported = unwrapDefault(required);
  }
  if (!isDefinition(exported)) {
    throw new Error(
      `${entryFile} exports no register(api) function: expected module.exports = { register(api) { … } } or an ES module's export default`,
    );
  }
  return exported;
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
