// Lint rules that keep the architecture (ADR 0023, CONTRIBUTING.md): one folder per feature, adapters wired
// only in context.ts, no HTTP below the routes, and no service (or its tests) importing another service.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

const services = ['gateway', 'applications', 'documents', 'letters', 'reference', 'audit'];
const noOtherService = services.map((s) => ({
  group: [`@register/${s}`, `@register/${s}/*`],
  message: 'Services never import each other: use its HTTP API or its events (tests: libs/testkit startNeighbour).',
}));
const noReachingOut = {
  group: [
    '../../*/src',
    '../../*/src/**',
    '../../../*/src',
    '../../../*/src/**',
    '../../../../*/src/**',
    '../../../services/**',
    '../../../../services/**',
  ],
  message: 'Services (and their tests) never import another service: start it through libs/testkit.',
};
const noAdapters = {
  group: ['**/adapters/*', '**/adapters'],
  message: 'Adapters are wired only in context.ts: depend on the port (an interface in the feature) instead.',
};
const noCaseInsensitiveRouter = {
  name: 'express',
  importNames: ['Router', 'default'],
  allowTypeImports: true,
  message: 'Use caseSensitiveRouter() and registerApp() of @register/service-kit: paths are case-sensitive.',
};
const noHttp = {
  name: 'express',
  message: 'Only routes know HTTP: use cases receive typed values and throw domain errors.',
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-bench/**',
      '**/node_modules/**',
      '**/coverage/**',
      '.data/**',
      'jest.config.js',
      'eslint.config.mjs',
      'libs/api-types/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    // The console's browser code has a tsconfig of its own (DOM, bundler resolution).
    files: ['libs/console/web/**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: false,
        project: './libs/console/tsconfig.web.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/test/**', '**/bench/**'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      complexity: ['error', 15],
      'no-restricted-imports': ['error', { patterns: [...noOtherService, noReachingOut] }],
      // ADR 0250: Prettier wraps code at 120 but never a string, comment or template; those are wrapped by hand
      // (a string split into a concatenation keeps its value). No exemption for URLs, strings or patterns.
      'max-len': [
        'error',
        {
          code: 120,
          comments: 120,
          tabWidth: 2,
          ignoreUrls: false,
          ignoreStrings: false,
          ignoreTemplateLiterals: false,
          ignoreRegExpLiterals: false,
        },
      ],
    },
  },
  {
    // Use cases, rules, repositories, ports: no adapter, no express. Every service alike (ADR 0242): main.ts and
    // context.ts compose, app.ts is a service's own request listener (the gateway's), adapters implement ports,
    // routes and middleware know HTTP.
    files: ['services/*/src/**/*.ts'],
    ignores: [
      'services/*/src/main.ts',
      'services/*/src/context.ts',
      'services/*/src/app.ts',
      'services/*/src/adapters/**',
      'services/*/src/**/*.routes.ts',
      'services/*/src/**/*.middleware.ts',
    ],
    rules: {
      'no-restricted-imports': ['error', { paths: [noHttp], patterns: [...noOtherService, noReachingOut, noAdapters] }],
    },
  },
  {
    // State kept per request lives on the request (ADR 0265, services/gateway/src/request-slot.ts): a WeakMap keyed
    // by the request kept its function values, and so the request, through V8's minor collections.
    files: ['services/*/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='WeakMap']",
          message: 'Keep per-request state on the request (the gateway: requestSlot; ADR 0265), not in a WeakMap.',
        },
      ],
    },
  },
  {
    // The gateway's own app and routers are built case-sensitive, as every service's are.
    files: ['services/gateway/src/**/*.ts', 'services/*/src/**/*.routes.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [noCaseInsensitiveRouter] }] },
  },
  {
    // Routes and middleware parse and map; they call use cases, never adapters.
    files: ['services/*/src/**/*.routes.ts', 'services/*/src/**/*.middleware.ts', 'services/*/src/app.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...noOtherService, noReachingOut, noAdapters] }] },
  },
  {
    files: ['services/*/migrations/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../src/*', '../src/**'], message: 'Migrations are frozen: they never import app code.' },
          ],
        },
      ],
    },
  },
  {
    // Each workspace declares the packages it imports (ADR 0220): the nearest package.json is the importer's own,
    // so a package that only the root or a neighbour declares fails here. Tests, benches and build scripts may
    // use devDependencies; shipped code only dependencies.
    files: ['**/*.ts', '**/*.mjs'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        {
          devDependencies: ['**/test/**', '**/bench/**', '**/scripts/**', '**/*.test.ts'],
          optionalDependencies: false,
          peerDependencies: false,
        },
      ],
    },
  },
  {
    files: ['**/test/**/*.ts', '**/bench/**/*.ts'],
    // Tests read loosely typed JSON bodies; production code keeps the rule. A test is a scenario and an oracle a
    // decision table, read against the ADR they check: neither is split to meet the size limits (ADR 0241).
    rules: {
      'no-console': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      'max-lines-per-function': 'off',
      complexity: 'off',
    },
  },
  {
    // Migrations are frozen once applied: a long `up` stays as it ran.
    files: ['services/*/migrations/**/*.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    files: ['**/bench/**/*.mjs', 'tools/*/bin/**/*.mjs'],
    rules: { 'no-undef': 'off', 'no-console': 'off', 'max-lines-per-function': 'off', complexity: 'off' },
  },
);
