import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * The admin console: a single-page app served at `/console` (by the standalone and by the fleet's
 * `console` app), built by `tools/build-console.mjs` into `dist/console` at the repository root.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  resolve: {
    // Rules the console shares with the APIs, one file each (never the whole contracts lib, which is Node code).
    alias: { '@lp/contracts/cron-rule': resolve(import.meta.dirname, '../../../libs/contracts/src/lib/operations/cron-rule.ts') },
  },
  build: {
    outDir: resolve(import.meta.dirname, '../../../dist/console'),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1024,
  },
  logLevel: 'warn',
});
