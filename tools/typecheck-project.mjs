// The `typecheck` target of one Nx project: its shipping code without Jest's types
// (tsconfig.lib.json, when the project ships anything), then everything with them
// (tsconfig.spec.json). Usage: node tools/typecheck-project.mjs <projectRoot>
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [projectRoot] = process.argv.slice(2);
if (!projectRoot) throw new Error('usage: typecheck-project.mjs <projectRoot>');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
for (const config of ['tsconfig.lib.json', 'tsconfig.spec.json']) {
  const path = join(projectRoot, config);
  if (!existsSync(path)) continue;
  const run = spawnSync(process.execPath, [tsc, '--noEmit', '-p', path], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
