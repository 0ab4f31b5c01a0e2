// Lint rules that keep the architecture: routes -> domain -> data-access, and no service imports another.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const services = ['gateway', 'applications', 'documents', 'letters', 'reference', 'audit'];
const noOtherService = services.map((s) => ({ group: [`@register/${s}`, `@register/${s}/*`], message: 'Services never import each other: use its HTTP API or its events.' }));
const noReachingOut = { group: ['../../*/src/*', '../../../services/*', '../../../../services/*'], message: 'Services never import each other.' };

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-bench/**', '**/node_modules/**', '**/coverage/**', '.data/**', 'jest.config.js', 'eslint.config.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      'no-restricted-imports': ['error', { patterns: [...noOtherService, noReachingOut] }],
    },
  },
  {
    files: ['services/*/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'express', message: 'Domain code knows no HTTP.' }], patterns: [...noOtherService, noReachingOut, { group: ['../routes/*', '../routes'], message: 'Domain code does not depend on routes.' }] }],
    },
  },
  {
    files: ['services/*/src/data-access/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'express', message: 'Data access knows no HTTP.' }], patterns: [...noOtherService, noReachingOut, { group: ['../routes/*', '../domain/*', '../routes', '../domain'], message: 'Data access depends on nothing above it.' }] }],
    },
  },
  {
    files: ['services/*/migrations/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['../src/*', '../src/**'], message: 'Migrations are frozen: they never import app code.' }] }] },
  },
  {
    files: ['**/test/**/*.ts', '**/bench/**/*.ts'],
    // Tests read loosely typed JSON bodies; production code keeps the rule.
    rules: { 'no-console': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/bench/**/*.mjs'],
    rules: { 'no-undef': 'off', 'no-console': 'off' },
  },
);
