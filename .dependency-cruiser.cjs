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
  ['agents', 'sessions', 'admin', 'health', 'telemetry'],
  ['routing', 'session-policy', 'runtime'],
  ['memory', 'outbound'],
  ['channels', 'config-plan'],
  ['session-tools', 'a2a-channel'],
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

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
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
