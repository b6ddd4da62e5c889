// Builds the admin console (apps/console/web, React + Vite) into dist/console when its sources
// changed since the last build: `npm ci` (prepare), `npm start` and the console's tests call it, and
// it costs nothing when the build is current. The new build is written beside the old one and moved
// into place, so a server never serves a half-written console and two builders cannot mix files.
// Without Vite (an install with --omit=dev, as in the image, which builds the console in its own
// stage) it keeps the build it finds.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Files outside the console's folder that it imports (apps/console/web/vite.config.mts says why).
const sharedSources = JSON.parse(readFileSync(join(root, 'apps/console/web/shared-sources.json'), 'utf8'));
const source = join(root, 'apps/console/web');
const target = join(root, 'dist/console');
const STAMP = '.source-hash';

function files(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)]))
    .sort();
}

function sourceHash() {
  const hash = createHash('sha256');
  const shared = Object.values(sharedSources).map((path) => join(root, path));
  for (const file of [...files(source), ...shared, join(root, 'package-lock.json')]) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const wanted = sourceHash();
const current = existsSync(join(target, STAMP)) ? readFileSync(join(target, STAMP), 'utf8') : undefined;
if (current === wanted && !process.argv.includes('--force')) process.exit(0);

let vite;
try {
  vite = await import('vite');
} catch {
  if (existsSync(join(target, 'index.html'))) process.exit(0);
  console.error('console: Vite is not installed and there is no built console in dist/console (run npm ci, then npm run build:console)');
  process.exit(1);
}

const started = Date.now();
const staging = join(root, 'dist', `.console-${process.pid}`);
mkdirSync(dirname(staging), { recursive: true });
await vite.build({ configFile: join(source, 'vite.config.mts'), build: { outDir: staging, emptyOutDir: true }, logLevel: 'warn' });
writeFileSync(join(staging, STAMP), wanted);
const previous = join(root, 'dist', `.console-old-${process.pid}`);
if (existsSync(target)) renameSync(target, previous);
try {
  renameSync(staging, target);
} catch (error) {
  // Another builder moved its build in first: same sources, same result.
  if (!existsSync(join(target, 'index.html'))) throw error;
  rmSync(staging, { recursive: true, force: true });
}
rmSync(previous, { recursive: true, force: true });
const size = files(target).reduce((sum, file) => sum + statSync(file).size, 0);
console.log(`console: built dist/console in ${((Date.now() - started) / 1000).toFixed(1)} s (${Math.round(size / 1024)} KiB)`);
