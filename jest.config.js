// Unit specs live beside the code (src/**/*.spec.ts); e2e specs in test/ boot the real app. Both need only
// Node.js. Specs that need a system program (nginx, ...) are test/system/*.system-spec.ts, run by
// `npm run test:system` (jest.system.config.js, which shares these settings).
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/system/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
    // Jest runs modules in a vm without `import()` (unless node runs with --experimental-vm-modules); the OTLP
    // exporter loads node:http that way. Its JavaScript alone is compiled to CommonJS, which turns it into require.
    '/node_modules/@opentelemetry/otlp-exporter-base/.+\\.js$': ['ts-jest', { diagnostics: false, tsconfig: { allowJs: true } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!@opentelemetry/otlp-exporter-base/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 30000,
  maxWorkers: 2,
  setupFiles: ['<rootDir>/test/support/jest-env.ts'],
  // After the run: every answer the gateways gave matched their OpenAPI document (test/support/openapi-contract).
  reporters: ['default', '<rootDir>/test/support/openapi-contract/reporter.js'],
};
