// @ts-check
// ESLint (type-aware) for src/, test/ and bench/; plain (browser globals, ES modules) for the console's scripts. Formatting is Prettier's job (`npm run format`); import
// boundaries are dependency-cruiser's (.dependency-cruiser.cjs). Both run in `npm run lint`.
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** What the console's scripts may use without importing it. */
const BROWSER_GLOBALS = [
  'window',
  'document',
  'location',
  'history',
  'navigator',
  'sessionStorage',
  'localStorage',
  'fetch',
  'URL',
  'URLSearchParams',
  'Node',
  'HTMLElement',
  'Event',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'structuredClone',
  'Blob',
];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'data/',
      'coverage/',
      'node_modules/',
      'test/fixtures/',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
      '!public/console/**/*.js',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Ports are async so that another backend can do I/O; an implementation that finishes at once still
      // returns a promise, and `async` is what turns its throw into a rejection the caller can catch.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Prettier wraps code at 140; this catches what it leaves alone (comments), strings and URLs excepted.
      'max-len': ['error', { code: 140, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    // Tests read untyped HTTP bodies (supertest's `res.body`, the JSON the fake servers receive); the rules
    // about `any` values would only add casts there. `expect(fake.method)` is how jest checks a call.
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // The web console: plain ES modules run by the browser as they are (no bundler, no TypeScript).
    files: ['public/console/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      sourceType: 'module',
      ecmaVersion: 2022,
      parserOptions: { projectService: false, project: null },
      globals: Object.fromEntries(BROWSER_GLOBALS.map((name) => [name, 'readonly'])),
    },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-restricted-globals': ['error', { name: 'localStorage', message: 'Credentials stay in this tab: use sessionStorage.' }],
      'no-restricted-properties': ['error', { property: 'innerHTML', message: 'Data enters the page as text: use dom.js h().' }],
    },
  },
);
