// `npm run test:mixed`: the mixed-version tests alone, with the root configuration's infrastructure (PostgreSQL,
// NATS, S3). Not in `npm test`: they need the v1.0.0 tree built beside this one (`dist/prepare.js`, ADR 0230).
const path = require('node:path');
const root = require('../../jest.config.js');
const { displayName: _, ...shared } = root.projects[0];

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      ...shared,
      displayName: 'mixed-versions',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      // Before the shared ones: their catch-all maps `@register/<name>` to libs/.
      moduleNameMapper: {
        '^@register/compat$': path.join(__dirname, '..', 'compat', 'src'),
        ...shared.moduleNameMapper,
      },
    },
  ],
  globalSetup: root.globalSetup,
  globalTeardown: root.globalTeardown,
  cacheDirectory: root.cacheDirectory,
  maxWorkers: 1,
  passWithNoTests: false,
  testTimeout: root.testTimeout,
};
