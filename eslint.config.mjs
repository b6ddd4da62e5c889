import nx from '@nx/eslint-plugin';
import { existsSync } from 'node:fs';

/**
 * Module boundaries are the reason this file exists: a service may use shared and
 * platform code, never another service; contracts depend on nothing.
 */
const serviceScopes = ['authz-decision', 'policy-management'];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/node_modules', '**/dist', '.data', '.nx', 'tmp', 'coverage'] },
  {
    // Typed linting: every .ts file under apps, libs, tools and bench is in the root tsconfig.json,
    // which the project service finds on its own. The .js/.mjs tool files are in no tsconfig, so the
    // type-aware rules stay scoped to .ts files. A .ts path that is not on disk (source piped through
    // `--stdin` under a path of its own, as the module-boundary spec does) cannot be in a TypeScript
    // project either: it is linted without types rather than failing to parse.
    files: ['**/*.ts'],
    ignores: [(file) => !existsSync(file)],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          banTransitiveDependencies: false,
          enforceBuildableLibDependency: false,
          depConstraints: [
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:service', 'type:platform', 'type:contracts'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared', 'scope:platform'] },
            { sourceTag: 'scope:platform', onlyDependOnLibsWithTags: ['scope:platform', 'scope:shared'] },
            ...serviceScopes.map((scope) => ({
              sourceTag: `scope:${scope}`,
              onlyDependOnLibsWithTags: [`scope:${scope}`, 'scope:shared', 'scope:platform'],
            })),
            {
              sourceTag: 'scope:standalone',
              onlyDependOnLibsWithTags: [...serviceScopes.map((s) => `scope:${s}`), 'scope:shared', 'scope:platform'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', 'bench/**/*.ts', 'tools/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
