// The unit tests of the rule modules, for Stryker (npm run test:mutation): pure functions, no infrastructure.
/** @type {import('jest').Config} */
const path = require('node:path');
const base = require('./jest.config.js');

const shared = base.projects[0];
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: shared.transform,
  transformIgnorePatterns: shared.transformIgnorePatterns,
  moduleNameMapper: shared.moduleNameMapper,
  cacheDirectory: path.join(__dirname, 'node_modules', '.cache', 'jest-mutation'),
  testMatch: [
    '<rootDir>/services/applications/test/submit-rules.test.ts',
    '<rootDir>/services/applications/test/eligibility.test.ts',
    '<rootDir>/services/applications/test/mirror-rules.test.ts',
    '<rootDir>/services/letters/test/brief-rules.test.ts',
    '<rootDir>/services/letters/test/content-rules.test.ts',
    '<rootDir>/libs/authz/test/capabilities.test.ts',
    '<rootDir>/libs/authz/test/routes.test.ts',
    '<rootDir>/libs/authz/test/authorize.test.ts',
    '<rootDir>/services/gateway/test/idempotency-rules.test.ts',
  ],
};
