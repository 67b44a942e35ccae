// Unit specs live beside the code (src/**/*.spec.ts); e2e specs in test/ boot the real app.
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 30000,
  maxWorkers: 2,
  setupFiles: ['<rootDir>/test/support/jest-env.ts'],
};
