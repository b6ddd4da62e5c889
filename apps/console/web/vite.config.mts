import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import sharedSources from './shared-sources.json' with { type: 'json' };

const repositoryRoot = resolve(import.meta.dirname, '../../..');

/**
 * `shared-sources.json`: the files outside this folder the console imports, by the alias it imports
 * them under — rules it shares with the APIs, one file each, never a whole lib (the libs are Node
 * code). tools/build-console.mjs counts them as build inputs; the image's console stage copies them.
 *
 * The admin console: a single-page app served at `/console` (by the standalone and by the fleet's
 * `console` app), built by `tools/build-console.mjs` into `dist/console` at the repository root.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  resolve: {
    alias: Object.fromEntries(Object.entries(sharedSources).map(([alias, path]) => [alias, resolve(repositoryRoot, path)])),
  },
  build: {
    outDir: resolve(repositoryRoot, 'dist/console'),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1024,
  },
  logLevel: 'warn',
});
