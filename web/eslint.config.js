// Console lint (flat config): JavaScript and TypeScript recommended rules, React's hook
// rules (including the React Compiler checks of eslint-plugin-react-hooks 7) and the import
// boundaries below. `npm run lint` (which also runs scripts/check-cycles.mjs).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/*
 * Import boundaries: a feature imports no other feature (what two features share belongs in
 * components/ or lib/), lib/ imports no store and no feature, components/ imports no feature.
 * Two rules, so that their options do not replace each other: `no-restricted-imports` checks
 * the '@/…' aliases, per zone; `@typescript-eslint/no-restricted-imports` keeps relative
 * imports inside their zone (a feature's own folder, lib/, components/), per folder depth, so
 * that '../other-feature/…' cannot walk round the alias rule.
 */
const sourceGlob = '*.{ts,tsx}';
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const otherFeatureAlias = (own) => ({
  regex: own ? `^@/features/(?!${own}/)` : '^@/features/',
  message: own
    ? 'A feature imports no other feature: move what both need to components/ or lib/.'
    : 'Only the app and the feature itself import a feature.',
});
const storeAlias = { regex: '^@/stores/', message: 'lib/ imports no store: move the shared piece into lib/.' };
const aliasBoundaries = [
  ...features.map((feature) => ({
    files: [`src/features/${feature}/**/${sourceGlob}`],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherFeatureAlias(feature)] }] },
  })),
  {
    files: [`src/lib/**/${sourceGlob}`],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherFeatureAlias(null), storeAlias] }] },
  },
  {
    files: [`src/components/**/${sourceGlob}`],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherFeatureAlias(null)] }] },
  },
];
// A file `depth` folders below its zone's root may climb at most depth - 1 folders.
const zoneRoots = ['src/features/*', 'src/lib', 'src/components'];
const relativeBoundaries = zoneRoots.flatMap((root) =>
  [1, 2, 3, 4, 5].map((depth) => ({
    files: [`${root}/${'*/'.repeat(depth - 1)}${sourceGlob}`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./){${depth}}`,
              message: `A relative import stays inside ${root.replace('/*', '/<feature>')}/; reach elsewhere through '@/…'.`,
            },
          ],
        },
      ],
    },
  })),
);

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
  ...aliasBoundaries,
  ...relativeBoundaries,
);
