// Runs several npm scripts at once and fails when any of them fails: `npm test` checks lint and
// types side by side (each is mostly one process on one core: 87 s together against 101 s one after
// the other, 2026-11-29). Each script's output is printed whole when it ends, so they never interleave.
// Usage: node tools/ci/run-scripts-together.mjs <script> [<script> ...]
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) throw new Error('usage: run-scripts-together.mjs <script> [<script> ...]');

function runScript(name) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '-s', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(Buffer.concat(output));
      const ok = code === 0;
      process.stdout.write(`${name}: ${ok ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s\n`);
      resolve(ok);
    });
  });
}

const results = await Promise.all(scripts.map(runScript));
process.exit(results.every(Boolean) ? 0 : 1);
