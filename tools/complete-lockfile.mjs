#!/usr/bin/env node
/**
 * Completes package-lock.json with the other platforms' optional native packages.
 *
 * The registry this project installs from serves only the packages of this machine's platform
 * (e.g. @swc/core-darwin-arm64 answers 404), so `npm install` leaves those optional entries out of
 * the lockfile, and `npm ci` then refuses the lockfile as out of sync. The entries added here carry
 * `os`/`cpu`/`libc` and `optional: true`, exactly as npm writes them where it can see the packages,
 * so `npm ci` skips them on a non-matching machine. Run it after `npm install` changes the lockfile.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openharmony', 'sunos', 'netbsd', 'openbsd', 'aix'];
const CPU = [
  ['arm64', 'arm64'],
  ['aarch64', 'arm64'],
  ['x64', 'x64'],
  ['ia32', 'ia32'],
  ['ppc64', 'ppc64'],
  ['s390x', 's390x'],
  ['loong64', 'loong64'],
  ['riscv64', 'riscv64'],
  ['arm', 'arm'],
  ['wasm32', 'wasm32'],
];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = OS.find((o) => parts.includes(o));
  const cpu = CPU.find(([token]) => parts.includes(token))?.[1];
  if (!os || !cpu) return undefined;
  const libc = parts.some((p) => p.startsWith('musl')) ? ['musl'] : parts.some((p) => p.startsWith('gnu')) && os === 'linux' ? ['glibc'] : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc } : {}) };
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [dep, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = location === '' ? '' : `${location}/`;
    const candidates = [`${base}node_modules/${dep}`, `node_modules/${dep}`];
    if (candidates.some((c) => packages[c])) continue;
    const platform = platformOf(dep);
    if (!platform || !/^\d+\.\d+\.\d+/.test(range)) continue;
    packages[`node_modules/${dep}`] = { version: range.replace(/^[=^~]/, ''), ...platform, optional: true };
    added += 1;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: ${added} optional platform entries added`);
