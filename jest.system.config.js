// The system tier: suites that drive a real system program (nginx, PostgreSQL, ...). Each fails, naming the install,
// when its program is missing. Same settings as jest.config.js, other specs.
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/system'],
  testMatch: ['**/*.system-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
};
