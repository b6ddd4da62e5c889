import nx from '@nx/eslint-plugin';
import { existsSync } from 'node:fs';

/**
 * Module boundaries are the reason this file exists: a service may use the guard, platform and
 * contracts libs, never another service; contracts depend on nothing; shipping code never reaches
 * test code. Type-aware rules catch the promise and switch mistakes the compiler lets through.
 */
const serviceScopes = ['authz-decision', 'policy-management', 'operations', 'case-management', 'mcp-gateway', 'workflow-engine', 'webhook-dispatcher'];

/** Specs, the test/ folders beside src/, the e2e project and the benchmarks: code that never ships. */
const TEST_CODE = ['**/*.spec.ts', '**/*.int-spec.ts', '**/test/**/*.ts', 'apps/e2e/**/*.ts', 'bench/**/*.ts'];

const BOUNDARY_OPTIONS = { allow: [], banTransitiveDependencies: false, enforceBuildableLibDependency: false };

/**
 * Who may depend on whom, by layer (type) and by owner (scope). Layers from the bottom: contracts;
 * platform libs; the guard library (uses platform); services (use the guard); the fleet list;
 * apps. `type:testing` (platform/testing, and by the rule above every `@lp/.../testing` entry point)
 * is reachable only from test code.
 */
function dependencyRules({ testing }) {
  const withTesting = (tags) => (testing ? [...tags, 'type:testing'] : tags);
  const scopes = (own) => [own, 'scope:shared', 'scope:platform'];
  return [
    { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: withTesting([]) },
    { sourceTag: 'type:platform', onlyDependOnLibsWithTags: withTesting(['type:platform', 'type:contracts']) },
    { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:testing', 'type:platform', 'type:contracts'] },
    { sourceTag: 'type:guard', onlyDependOnLibsWithTags: withTesting(['type:platform', 'type:contracts']) },
    { sourceTag: 'type:service', onlyDependOnLibsWithTags: withTesting(['type:guard', 'type:platform', 'type:contracts']) },
    { sourceTag: 'type:fleet', onlyDependOnLibsWithTags: ['type:service', 'type:guard', 'type:platform', 'type:contracts'] },
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:fleet', 'type:service', 'type:guard', 'type:platform', 'type:contracts'] },
    { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:fleet', 'type:service', 'type:guard', 'type:platform', 'type:contracts', 'type:testing'] },
    { sourceTag: 'type:bench', onlyDependOnLibsWithTags: ['type:fleet', 'type:service', 'type:guard', 'type:platform', 'type:contracts', 'type:testing'] },
    // tools/: the operator's commands (token, start-fleet) and the test tooling.
    { sourceTag: 'type:tools', onlyDependOnLibsWithTags: ['type:fleet', 'type:platform', 'type:contracts', 'type:testing'] },
    { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared', 'scope:platform'] },
    { sourceTag: 'scope:platform', onlyDependOnLibsWithTags: ['scope:platform', 'scope:shared'] },
    ...serviceScopes.map((scope) => ({ sourceTag: `scope:${scope}`, onlyDependOnLibsWithTags: scopes(`scope:${scope}`) })),
    { sourceTag: 'scope:fleet', onlyDependOnLibsWithTags: [...serviceScopes.map((s) => `scope:${s}`), 'scope:shared', 'scope:platform'] },
    { sourceTag: 'scope:standalone', onlyDependOnLibsWithTags: ['scope:fleet', 'scope:shared', 'scope:platform'] },
  ];
}

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
    files: ['**/*.ts', '**/*.tsx'],
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
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { ...BOUNDARY_OPTIONS, depConstraints: dependencyRules({ testing: false }) }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Shipping code never reaches test code: not a testing entry point (`@lp/.../testing`), not a
    // lib's test/ folder by a relative path. Specs, test/ folders, the e2e project and the benchmarks
    // are exempt below.
    files: ['**/*.ts'],
    ignores: TEST_CODE,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^@lp/.+/testing$', message: 'A testing entry point is for specs only: src/ holds what ships.' },
            { regex: '(^|/)test(/|$)', message: "A lib's test/ folder is for specs only: src/ holds what ships." },
          ],
        },
      ],
    },
  },
  {
    files: TEST_CODE,
    rules: {
      '@nx/enforce-module-boundaries': ['error', { ...BOUNDARY_OPTIONS, depConstraints: dependencyRules({ testing: true }) }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/test/**/*.ts', 'apps/e2e/**/*.ts', 'bench/**/*.ts', 'tools/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
