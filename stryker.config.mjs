// Mutation testing of the rule modules (npm run test:mutation): every mutant must be killed by a unit test or be
// listed below as equivalent, with why. Target: at least 90 % per module.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'jest',
  jest: { configFile: 'jest.mutation.config.js', enableFindRelatedTests: false },
  coverageAnalysis: 'perTest',
  mutate: [
    'services/applications/src/submission/submit-rules.ts',
    'services/applications/src/registration/eligibility.ts',
    'services/applications/src/case-mirror/mirror-rules.ts',
    'services/letters/src/briefs/brief-rules.ts',
    'services/letters/src/content/content-rules.ts',
    'libs/authz/src/capabilities.ts',
    'libs/authz/src/authorize.ts',
    'services/gateway/src/idempotency/idempotency-rules.ts',
  ],
  reporters: ['clear-text', 'progress', 'html'],
  clearTextReporter: { logTests: false, allowEmojis: false },
  htmlReporter: { fileName: 'test-artifacts/mutation/index.html' },
  thresholds: { high: 95, low: 90, break: 90 },
  concurrency: 2,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['.stryker-tmp', '.data', 'test-artifacts', '**/dist', '.ci/out', 'node_modules/.cache'],
};
