// ESLint over the project with typescript-eslint's recommended type-checked rules (npm run lint).
// Each rule turned off or tuned says why.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export default tseslint.config(
  { ignores: ['test/generated-client/', 'test/lint/', '**/*.js', '**/*.cjs'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: {
      // A field left out by destructuring (`const { PK: _pk, ...item } = stored`) is named with an
      // underscore on purpose; so is a parameter a signature needs and the body does not.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // An async function that implements a Promise-returning port (an in-process queue, the local
      // secret box) returns its result as a promise and its throw as a rejection, awaiting nothing.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read JSON answers and CloudFormation templates (typed `any`) and assert on their
      // shape field by field: typing each one first would restate the schema the test checks.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
