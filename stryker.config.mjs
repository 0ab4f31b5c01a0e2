// Mutation testing of the rule modules (npm run test:mutation): every mutant must be killed by a unit test or be
// listed below as equivalent, with why. Target: at least 90 % per module.
//
// Equivalent mutants, each disabled where it stands with a `// Stryker disable next-line` comment:
// - letters/src/content/content-rules.ts, checkBlock: `content.paragraphs?.` and `p.nodes?.` (normalizeContent
//   always gives both arrays; the `?.` only satisfies the nullable schema type) and `n.key ?? ''` (the schema
//   gives every placeholder a key, and any stand-in is no placeholder of the letter either).
// - letters/src/content/content-rules.ts, checkSections: `if (b.blockId)` made `true` (a stored block always has
//   the id the server gave it).
// - applications/src/case-mirror/mirror-rules.ts, besluitOf: `[0]?.trim()` and the `''` stand-ins (a split gives
//   at least one part, and null, '' or any stand-in text all read as no besluit).
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
