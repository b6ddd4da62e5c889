// Maps the tsconfig path aliases to Jest's moduleNameMapper, so tests import exactly what the code imports.
const { paths } = require('../../tsconfig.base.json').compilerOptions;

function escape(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

exports.pathsToModuleNameMapper = function pathsToModuleNameMapper() {
  const mapper = {};
  for (const [alias, [target]] of Object.entries(paths)) {
    mapper[`^${escape(alias)}$`] = `<rootDir>/${target}`;
  }
  return mapper;
};
