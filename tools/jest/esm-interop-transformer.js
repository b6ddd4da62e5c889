/**
 * Jest transformer for the project's TypeScript and for the ESM-only packages of Nest 12.
 *
 * Nest 12 ships as ES modules only, and Jest's CommonJS runtime on Node 20 cannot `require()` them
 * (Node itself can, which is why `npm start` needs none of this). SWC turns those modules into
 * CommonJS here; `import.meta` has no CommonJS form, so its three uses in those packages are
 * rewritten to their CommonJS equivalents first.
 */
const { createHash } = require('node:crypto');
const { relative } = require('node:path');
const swcJest = require('@swc/jest');

const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

const inner = swcJest.createTransformer(swcOptions);

function rewriteImportMeta(source) {
  if (!source.includes('import.meta')) return source;
  return source
    .replace(/import\.meta\.url/g, '("file://" + __filename)')
    .replace(/import\.meta\.dirname/g, '__dirname')
    .replace(/import\.meta\.filename/g, '__filename')
    .replace(/import\.meta\.resolve\(/g, 'require.resolve(');
}

/** What the output depends on besides the source and its path: the compilers and their options. */
const TRANSFORM_IDENTITY = JSON.stringify(['esm-interop-3', require('@swc/core/package.json').version, require('@swc/jest/package.json').version, swcOptions]);

module.exports = {
  canInstrument: inner.canInstrument,
  /**
   * The key of a file's compiled output in Jest's cache. @swc/jest's own key hashes Jest's whole
   * project config too (roots, testMatch), so each Jest run of `npm test` (unit, integration and
   * end-to-end specs, each with its own config) compiled every module it loads again — Nest, TypeORM
   * and every service each time. The output depends only on what is hashed here.
   */
  getCacheKey(source, path, options) {
    return createHash('sha1')
      .update(TRANSFORM_IDENTITY)
      .update('\0')
      .update(rewriteImportMeta(source))
      .update('\0')
      .update(relative(options.config.rootDir, path))
      .update('\0')
      .update(JSON.stringify([Boolean(options.instrument), Boolean(options.supportsStaticESM)]))
      .digest('hex');
  },
  process(source, path, options) {
    return inner.process(rewriteImportMeta(source), path, options);
  },
  processAsync(source, path, options) {
    return inner.processAsync(rewriteImportMeta(source), path, options);
  },
};
