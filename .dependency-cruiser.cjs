// The import rules of src/ and bench/ (see docs/architecture.md): layers point one way, modules meet through
// their index.ts, and nothing imports in a circle. `npm run lint` runs this next to ESLint.

/**
 * The modules from the bottom up. A module may import modules of lower layers only; common/ sits below
 * them all. Moving a module, or adding one, starts here (and in docs/architecture.md).
 */
const LAYERS = [
  ['config', 'console'],
  ['metrics'],
  ['cluster'],
  ['agents', 'sessions', 'admin', 'health', 'telemetry', 'usage', 'approvals', 'endpoint-keys'],
  ['routing', 'session-policy', 'runtime'],
  ['memory', 'outbound', 'plugins'],
  ['mcp'],
  ['channels', 'config-plan'],
  ['session-tools', 'a2a-channel', 'mcp-server'],
  ['topology'],
];

const layerRules = LAYERS.flatMap((layer, i) =>
  layer.map((name) => {
    const notBelow = LAYERS.slice(i)
      .flat()
      .filter((other) => other !== name);
    return {
      name: `layer-${name}`,
      severity: 'error',
      comment: `${name} is in layer ${i}; it may import only modules of lower layers (see LAYERS).`,
      from: { path: `^src/modules/${name}/` },
      to: { path: `^src/modules/(${notBelow.join('|')})/` },
    };
  }),
);

/**
 * The folders of the a2a-channel module from the bottom up (docs/architecture.md#a2a-channel): a folder imports only
 * folders of lower layers (and the module's own root files import anything). Specs may reach anywhere, like tests.
 */
const A2A_CHANNEL_FOLDERS = [
  ['model', 'card'],
  ['protocol'],
  ['store'],
  ['streaming', 'push', 'attachments'],
  ['replicas'],
  ['tasks'],
  ['operations'],
  ['bindings', 'admin'],
];
const A2A = '^src/modules/a2a-channel/';

const a2aFolderRules = [
  ...A2A_CHANNEL_FOLDERS.flatMap((layer, i) =>
    layer.map((name) => {
      const notBelow = A2A_CHANNEL_FOLDERS.slice(i)
        .flat()
        .filter((other) => other !== name);
      return {
        name: `a2a-folder-${name}`,
        severity: 'error',
        comment: `a2a-channel/${name}/ is in folder layer ${i}; it may import only folders of lower layers (see A2A_CHANNEL_FOLDERS).`,
        from: { path: `${A2A}${name}/`, pathNot: '\\.spec\\.ts$' },
        to: { path: `${A2A}(${notBelow.join('|')})/` },
      };
    }),
  ),
  {
    name: 'a2a-folder-stores-behind-ports',
    severity: 'error',
    comment:
      'The task and push stores are used through their ports in a2a-channel/store/; only the module file, which picks ' +
      'and builds them, and the stores themselves import store/sqlite/ or store/postgres/.',
    from: { path: A2A, pathNot: [`${A2A}store/(sqlite|postgres)/`, `${A2A}a2a-channel\\.module\\.ts$`, '\\.spec\\.ts$'] },
    to: { path: `${A2A}store/(sqlite|postgres)/` },
  },
  {
    name: 'a2a-folder-sqlite-below-postgres',
    severity: 'error',
    comment: 'PostgreSQL mirrors the SQLite layout (store/postgres/ may read store/sqlite/), never the other way round.',
    from: { path: `${A2A}store/sqlite/`, pathNot: '\\.spec\\.ts$' },
    to: { path: `${A2A}store/postgres/` },
  },
  {
    name: 'a2a-folder-rest-apart-from-json-rpc',
    severity: 'error',
    comment: 'The JSON-RPC endpoint hands HTTP+JSON paths to the REST binding; the REST binding needs nothing of JSON-RPC.',
    from: { path: `${A2A}bindings/rest/`, pathNot: '\\.spec\\.ts$' },
    to: { path: `${A2A}bindings/json-rpc/` },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    ...a2aFolderRules,
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Import cycles make load order matter and modules impossible to read one at a time. A cycle closed ' +
        'only by `import type` counts too: it is erased at compile time, but the files still cannot be read ' +
        'one at a time (madge --circular, which counts it, agrees with this rule).',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'module-internals',
      severity: 'error',
      comment:
        "Another module is used through its public surface only: import '../<module>' (its index.ts), " +
        'not a file inside it. Add what you need to that index.ts.',
      from: { path: '^src/modules/([^/]+)/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^src/modules/([^/]+)/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'entry-points-use-module-surfaces',
      severity: 'error',
      comment: 'The app module, bootstrap and the CLI import modules through their index.ts too.',
      from: { path: '^src/[^/]+\\.ts$|^src/cli/' },
      to: { path: '^src/modules/[^/]+/.+', pathNot: '^src/modules/[^/]+/index\\.ts$' },
    },
    {
      name: 'benches-use-module-surfaces',
      severity: 'error',
      comment:
        'A benchmark measures what the modules offer: it imports a module through its index.ts, as the entry ' +
        'points do. Export what it needs there when it is a fair part of the surface.',
      from: { path: '^bench/' },
      to: { path: '^src/modules/[^/]+/.+', pathNot: '^src/modules/[^/]+/index\\.ts$' },
    },
    {
      name: 'benches-are-not-imported',
      severity: 'error',
      comment:
        'A file directly in bench/ is a benchmark, `<name>.bench.ts`, run by its npm script; nothing imports it. ' +
        'Code benchmarks share lives in bench/support/.',
      from: {},
      to: { path: '^bench/[^/]+$' },
    },
    {
      name: 'common-stays-below-modules',
      severity: 'error',
      comment: 'common/ holds what modules share; it never depends on a module.',
      from: { path: '^src/common/' },
      to: { path: '^src/(modules|cli)/|^src/[^/]+\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
