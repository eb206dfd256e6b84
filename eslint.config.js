// ESLint 9 flat config: @eslint/js recommended and typescript-eslint recommended (no type-aware
// rules, to keep `npm test` fast) over the sources, the tests and the scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // Built output, dependencies, scratch space (the conformance suite runs in .tmp/), generated
    // state and examples, and fixtures: fixtures and examples are byte-exact inputs, not our code.
    ignores: ['server/dist/**', 'node_modules/**', '.tmp/**', '.copilot-state/**', 'tests/fixtures/**', 'examples/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `const { data: _d, ...rest } = x` is how the code drops a field; a leading underscore marks
      // a name that is unused on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { ignoreRestSiblings: true, argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // The plain-JavaScript scripts run on Node: its globals (process, console, URL, ...) are the
    // ones this Node has, read here rather than from another package.
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: Object.fromEntries(Object.getOwnPropertyNames(globalThis).map((n) => [n, 'readonly'])) },
  },
  {
    files: ['tests/**/*.ts'],
    rules: {
      // Tests read JSON whose shape is the thing under test (state files, traces, structuredContent)
      // and index into it freely; typing every such read would hide the assertion behind casts.
      '@typescript-eslint/no-explicit-any': 'off',
      // Tests match terminal output, escape sequences (\x1b) included, on purpose.
      'no-control-regex': 'off',
    },
  },
);
