/**
 * Loads the TypeScript sources in a bench's server processes, as `ts-node --transpile-only` would but without
 * its side effects: ts-node loads `node:repl`, and with it `node:domain`, which makes every EventEmitter emit
 * (so every HTTP request) slower than in a production process. Each file is transpiled on its own with the
 * project's compiler options, like the build does (isolatedModules).
 */
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const configFile = path.resolve(__dirname, '..', '..', 'tsconfig.json');
const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, path.dirname(configFile));
const compilerOptions = { ...options, sourceMap: false, inlineSourceMap: true, declaration: false, noEmit: false };

require.extensions['.ts'] = (module, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};
