/**
 * Jest transformer for the project's TypeScript and for the ESM-only packages of Nest 12.
 *
 * Nest 12 ships as ES modules only, and Jest's CommonJS runtime on Node 20 cannot `require()` them
 * (Node itself can, which is why `npm start` needs none of this). SWC turns those modules into
 * CommonJS here; `import.meta` has no CommonJS form, so its three uses in those packages are
 * rewritten to their CommonJS equivalents first.
 */
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

module.exports = {
  canInstrument: inner.canInstrument,
  getCacheKey(source, path, options) {
    return `esm-interop-2:${inner.getCacheKey(rewriteImportMeta(source), path, options)}`;
  },
  process(source, path, options) {
    return inner.process(rewriteImportMeta(source), path, options);
  },
  processAsync(source, path, options) {
    return inner.processAsync(rewriteImportMeta(source), path, options);
  },
};
