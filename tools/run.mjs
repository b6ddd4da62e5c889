#!/usr/bin/env node
// Runs a TypeScript entry point with SWC (decorator metadata included, tsconfig paths resolved),
// so `npm start` needs no build step on a fresh clone.
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node tools/run.mjs <entry.ts> [args...]');
  process.exit(2);
}
const child = spawn(process.execPath, ['--enable-source-maps', '-r', '@swc-node/register', resolve(root, entry), ...args], {
  stdio: 'inherit',
  env: { ...process.env, SWC_NODE_PROJECT: resolve(root, 'tsconfig.base.json') },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
