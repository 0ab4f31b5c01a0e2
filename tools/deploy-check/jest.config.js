// `npm run check:deploy`: the deploy check alone. It reads files and runs kubectl, so it needs none of the test
// infrastructure the root configuration's global setup starts (PostgreSQL, NATS, S3) and no build.
const root = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  projects: root.projects.filter((project) => project.displayName === 'deploy-check'),
  cacheDirectory: root.cacheDirectory,
  maxWorkers: root.maxWorkers,
  testTimeout: root.testTimeout,
};
