// Runs several npm scripts at once and fails when any of them fails. `npm test` uses it twice:
// lint and types side by side (each is mostly one process on one core: 87 s together against 101 s
// one after the other, 2026-11-29), and the end-to-end specs beside everything else (that Jest run
// alone kept the 2 cores 46 % busy: its specs wait on processes, outages and leases). Output is passed
// through a whole line at a time, so lines of two scripts never mix; Nx prefixes each with its project.
// Usage: node tools/ci/run-scripts-together.mjs <script> [<script> ...]
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const scripts = process.argv.slice(2);
if (scripts.length === 0) throw new Error('usage: run-scripts-together.mjs <script> [<script> ...]');

function runScript(name) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '-s', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => process.stdout.write(`${line}\n`));
    }
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      process.stdout.write(`${name}: ${ok ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s\n`);
      resolve(ok);
    });
  });
}

const results = await Promise.all(scripts.map(runScript));
process.exit(results.every(Boolean) ? 0 : 1);
