// Writes tools/jest/spec-durations.json (each spec file's seconds, from a run's Jest JSON results)
// and prints the slowest files. The spec sequencer starts the slowest files first on a clean clone.
// Usage: node tools/ci/spec-durations.js <results-dir> [how many to print, default 10]
// The results' paths are taken relative to the clone that wrote them: .ci/run writes to
// <clone>/tmp/ci-results.
const { readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join, relative, resolve } = require('node:path');

const [dir, top = '10'] = process.argv.slice(2);
if (!dir) throw new Error('usage: spec-durations.js <results-dir> [top]');
const root = resolve(__dirname, '../..');
const resultsClone = resolve(dir, '../..');
const seconds = {};
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const run = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  for (const suite of run.testResults ?? []) {
    seconds[relative(resultsClone, suite.name)] = Math.round((suite.endTime - suite.startTime) / 100) / 10;
  }
}
const sorted = Object.entries(seconds).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
writeFileSync(join(root, 'tools/jest/spec-durations.json'), `${JSON.stringify(Object.fromEntries(sorted), null, 2)}\n`);
const total = sorted.reduce((sum, [, s]) => sum + s, 0);
console.log(`${sorted.length} spec files, ${total.toFixed(0)} s in all`);
for (const [path, s] of sorted.slice(0, Number(top))) console.log(`${s.toFixed(1).padStart(7)}  ${path}`);
