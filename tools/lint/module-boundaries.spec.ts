import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The boundaries of CONVENTIONS.md are enforced by lint, and lint is part of `npm test`; this spec
 * proves the rule actually bites, so a loosened eslint config cannot pass unnoticed.
 */
describe('module boundaries (lint)', () => {
  const root = join(__dirname, '..', '..');

  beforeAll(() => {
    // The boundary rule silently skips itself without a cached project graph; build it first,
    // exactly as `npm run lint` does.
    const graph = spawnSync(process.execPath, [join(root, 'node_modules/nx/dist/bin/nx.js'), 'show', 'projects'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NX_DAEMON: 'false' },
    });
    expect(graph.status).toBe(0);
  }, 120_000);

  // ESLint loads its flat config through a dynamic import, which Jest's module sandbox forbids:
  // run the real CLI on the source through stdin, as if the file existed at that path.
  async function boundaryErrors(file: string, source: string): Promise<string[]> {
    const run = spawnSync(
      process.execPath,
      [join(root, 'node_modules/eslint/bin/eslint.js'), '--format', 'json', '--stdin', '--stdin-filename', join(root, file)],
      { cwd: root, input: source, encoding: 'utf8', env: { ...process.env, NX_DAEMON: 'false' } },
    );
    if (!run.stdout) throw new Error(`eslint produced no report: ${run.stderr}`);
    const [result] = JSON.parse(run.stdout.slice(run.stdout.indexOf('['))) as Array<{ messages: Array<{ ruleId: string | null; message: string }> }>;
    return result!.messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.message);
  }

  it('fails a service lib importing another service lib', async () => {
    const errors = await boundaryErrors(
      'libs/services/policy-management/src/roles/cross-service.ts',
      "import { authzDecisionService } from '@lp/service/authz-decision';\nexport const x = authzDecisionService;\n",
    );
    expect(errors.join('\n')).toMatch(/type:service|scope:policy-management/);
  }, 120_000);

  it('fails contracts importing a platform lib', async () => {
    const errors = await boundaryErrors(
      'libs/contracts/src/lib/bad.ts',
      "import { CorrelationContext } from '@lp/platform/observability';\nexport const x = CorrelationContext;\n",
    );
    expect(errors.length).toBeGreaterThan(0);
  }, 120_000);

  it('lets a service lib use platform and contracts libs', async () => {
    const errors = await boundaryErrors(
      'libs/services/policy-management/src/roles/fine.ts',
      "import { AuthorizationAction } from '@lp/contracts';\nimport { PageQuery } from '@lp/platform/http';\nexport const x = [AuthorizationAction.View, PageQuery];\n",
    );
    expect(errors).toEqual([]);
  }, 120_000);

  it('lets the standalone app compose every service', async () => {
    const errors = await boundaryErrors(
      'apps/standalone/src/fine.ts',
      "import { authzDecisionService } from '@lp/service/authz-decision';\nimport { policyManagementService } from '@lp/service/policy-management';\nexport const x = [authzDecisionService, policyManagementService];\n",
    );
    expect(errors).toEqual([]);
  }, 120_000);
});
