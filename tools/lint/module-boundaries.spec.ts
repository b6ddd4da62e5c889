import { ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';

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

  // One ESLint process for every case (tools/lint/lint-sources.mjs): the real config, loaded once,
  // linting each source as if the file existed at that path. A process per case cost 2–3 s of CPU each.
  let linter: ChildProcessWithoutNullStreams | undefined;
  let replies: AsyncIterator<string> | undefined;
  afterAll(() => linter?.stdin.end());

  async function boundaryErrors(file: string, source: string): Promise<string[]> {
    if (!linter || !replies) {
      linter = spawn(process.execPath, [join(root, 'tools/lint/lint-sources.mjs')], { cwd: root, env: { ...process.env, NX_DAEMON: 'false' } });
      let stderr = '';
      linter.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      linter.on('exit', (code) => code && console.error(`lint-sources exited ${code}: ${stderr}`));
      replies = createInterface({ input: linter.stdout, crlfDelay: Infinity })[Symbol.asyncIterator]();
    }
    linter.stdin.write(`${JSON.stringify({ file, source })}\n`);
    const reply = await replies.next();
    if (reply.done) throw new Error('the linter process ended without an answer');
    const messages = JSON.parse(reply.value) as Array<{ ruleId: string | null; message: string }>;
    return messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries' || m.ruleId === 'no-restricted-imports').map((m) => m.message);
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

  it('lets the standalone app compose the fleet, and the fleet list name every service', async () => {
    const app = await boundaryErrors('apps/standalone/src/fine.ts', "import { fleetServices } from '@lp/fleet';\nexport const x = fleetServices;\n");
    expect(app).toEqual([]);
    const fleet = await boundaryErrors(
      'libs/fleet/src/fine.ts',
      "import { authzDecisionService } from '@lp/service/authz-decision';\nimport { policyManagementService } from '@lp/service/policy-management';\nexport const x = [authzDecisionService, policyManagementService];\n",
    );
    expect(fleet).toEqual([]);
  }, 120_000);

  it('fails shipping code importing a testing entry point or a test/ folder', async () => {
    const viaAlias = await boundaryErrors(
      'libs/services/authz-decision/src/engine/bad.ts',
      "import { InMemoryPolicyFacts } from '@lp/service/authz-decision/testing';\nexport const x = InMemoryPolicyFacts;\n",
    );
    expect(viaAlias.join('\n')).toMatch(/testing entry point is for specs only/);
    const viaPath = await boundaryErrors(
      'libs/services/authz-decision/src/engine/bad.ts',
      "import { InMemoryPolicyFacts } from '../../test/in-memory-policy-facts';\nexport const x = InMemoryPolicyFacts;\n",
    );
    expect(viaPath.join('\n')).toMatch(/test\/ folder is for specs only/);
    const platformTesting = await boundaryErrors(
      'libs/platform/runtime/src/bad.ts',
      "import { testRunId } from '@lp/platform/testing';\nexport const x = testRunId;\n",
    );
    expect(platformTesting.join('\n')).toMatch(/can only depend on libs tagged/);
  }, 120_000);

  it('lets specs use the testing entry points', async () => {
    const errors = await boundaryErrors(
      'libs/services/authz-decision/src/engine/fine.spec.ts',
      "import { InMemoryPolicyFacts } from '../../test/in-memory-policy-facts';\nimport { testRunId } from '@lp/platform/testing';\nexport const x = [InMemoryPolicyFacts, testRunId];\n",
    );
    expect(errors).toEqual([]);
  }, 120_000);

  it('fails a platform lib importing the guard library, which sits above it', async () => {
    const errors = await boundaryErrors(
      'libs/platform/runtime/src/bad.ts',
      "import { AuthorizeGuard } from '@lp/authz-guard';\nexport const x = AuthorizeGuard;\n",
    );
    // Refused as a layer violation or as the cycle it would make (the guard uses the runtime's port).
    expect(errors.join('\n')).toMatch(/can only depend on libs tagged|Circular dependency/);
  }, 120_000);

  it('keeps integration specs, fixtures and fakes out of every src/ folder', () => {
    const misplaced: string[] = [];
    const walk = (dir: string, inSrc: boolean): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path, inSrc || entry.name === 'src');
        else if (inSrc && /\.int-spec\.ts$|\.e2e\.spec\.ts$|fixtures?\.ts$|\.contract\.ts$|^in-memory-.*-facts\.ts$|\.sql$/.test(entry.name)) {
          misplaced.push(relative(root, path));
        }
      }
    };
    for (const top of ['apps', 'libs']) walk(join(root, top), false);
    expect(misplaced).toEqual([]);
  });
});
