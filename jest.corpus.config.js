// The corpus tier: every current-format OpenClaw config of ../shared/openclaw-corpus (outside the repository, so
// not part of `npm test`) starts a gateway and answers (test/corpus/*.corpus-spec.ts). It finds the corpus through
// $OPENCLAW_CORPUS_DIR or shared/openclaw-corpus in a parent directory, and fails naming both when there is none.
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/corpus'],
  testMatch: ['**/*.corpus-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  // One gateway at a time, each a process of its own: a file takes seconds.
  testTimeout: 180000,
  maxWorkers: 1,
  reporters: ['default'],
};
