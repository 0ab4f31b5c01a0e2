// One jest run over every workspace; workspace libraries resolve to their TypeScript sources.
/** @type {import('jest').Config} */
const path = require('node:path');

const swc = [
  '@swc/jest',
  { jsc: { target: 'es2023', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
];
// ESM-only packages that tests load in-process are compiled to CommonJS by swc.
const esmPackages = [
  'jose',
  '@apidevtools/json-schema-ref-parser',
  'file-type',
  'strtok3',
  'token-types',
  'peek-readable',
  '@tokenizer',
  'uint8array-extras',
  '@borewit',
  'fflate',
];

// In the project, not the temp directory: a test run leaves nothing there. Jest reads it per project (a
// top-level cacheDirectory does not reach the projects' transform cache).
const cacheDirectory = path.join(__dirname, 'node_modules', '.cache', 'jest');

const shared = {
  testEnvironment: 'node',
  cacheDirectory,
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: [`node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleNameMapper: {
    '^@register/launcher$': path.join(__dirname, 'tools/launcher/src'),
    '^@register/zgw-sim$': path.join(__dirname, 'tools/zgw-sim/src'),
    '^@register/dead-letters$': path.join(__dirname, 'tools/dead-letters/src'),
    '^@register/steady-load$': path.join(__dirname, 'tools/steady-load/src'),
    '^@register/([a-z-]+)$': path.join(__dirname, 'libs/$1/src'),
  },
};

const projects = [
  'libs/authz',
  'libs/problem',
  'libs/service-kit',
  'services/gateway',
  'services/reference',
  'services/audit',
  'services/applications',
  'services/documents',
  'services/letters',
  'tools/launcher',
  'tools/zgw-sim',
  'tools/deploy-check',
  'tools/dead-letters',
  'tools/api-description',
  'tools/steady-load',
  'tools/compat',
].map((dir) => ({
  ...shared,
  displayName: dir.split('/')[1],
  rootDir: path.join(__dirname, dir),
  testMatch: ['<rootDir>/test/**/*.test.ts'],
}));

module.exports = {
  projects,
  globalSetup: path.join(__dirname, 'libs/testkit/dist/global-setup.js'),
  globalTeardown: path.join(__dirname, 'libs/testkit/dist/global-teardown.js'),
  maxWorkers: 2,
  // A project whose tests disappeared fails the run instead of passing it.
  passWithNoTests: false,
  testTimeout: 60000,
  cacheDirectory,
};
