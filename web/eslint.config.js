// Console lint (flat config): JavaScript and TypeScript recommended rules, and React's hook
// rules (including the React Compiler checks of eslint-plugin-react-hooks 7). `npm run lint`.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'e2e/screenshots/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    files: ['e2e/**/*.{ts,mjs}', 'scripts/**/*.mjs', '*.ts', '*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    rules: {
      // Unused arguments named with a leading underscore are deliberate (positional callbacks).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
