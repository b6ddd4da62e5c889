#!/usr/bin/env node
// Reads YAML documents on stdin and prints them as one JSON array. With --kubernetes, each document
// must also be a valid object of the Kubernetes API, else it exits 1 listing every problem:
// - the official OpenAPI schemas as bundled by kubernetes-models (types, required fields, enums and
//   formats; the Prometheus Operator's kinds from @kubernetes-models/prometheus-operator);
// - and unknown fields as errors, which those schemas do not check (they allow additional
//   properties, as the API server's non-strict decoding does, so a misspelled `imagePullPolcy` or a
//   `livenessProbe` one level too deep would pass and be dropped by the cluster without a word). Each
//   object is type-checked by TypeScript, strict, as an object literal of the same packages'
//   interfaces: an excess property check on every level (TypeScript names the first problem of each
//   object, so a second misspelling in the same object shows once the first is fixed).
// Both packages are devDependencies of the workspace (kubernetes-validate, the strict validator, is
// a PyPI package, which this machine does not reach).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const load = (specifier) => import(specifier);

const { parseAllDocuments } = await load('yaml');
const documents = parseAllDocuments(readFileSync(0, 'utf8'));
const objects = [];
const problems = [];
for (const document of documents) {
  if (document.errors.length) problems.push(...document.errors.map((e) => `YAML: ${e.message}`));
  const object = document.toJS();
  if (object !== null && object !== undefined) objects.push(object);
}

/** The package holding a group's models: the Prometheus Operator's CRDs have their own. */
const modelsOf = (group, version) =>
  group === 'monitoring.coreos.com' ? `@kubernetes-models/prometheus-operator/${group}/${version}` : `kubernetes-models/${group ? `${group}/` : ''}${version}`;
const apiOf = (object) => (String(object.apiVersion).includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion]);
const nameOf = (object) => `${object.kind}/${object.metadata?.name}`;

/** Runtime validation against the OpenAPI schemas; returns the objects whose kind has a model. */
async function validateSchemas(list) {
  const known = [];
  for (const object of list) {
    const [group, version] = apiOf(object);
    let model;
    try {
      model = (await load(modelsOf(group, version)))[object.kind];
    } catch {
      model = undefined;
    }
    if (!model) {
      problems.push(`${nameOf(object)}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    known.push(object);
    try {
      new model(object).validate();
    } catch (error) {
      problems.push(`${nameOf(object)}: ${error.message}`);
    }
  }
  return known;
}

/**
 * TypeScript source declaring each object as a literal of its interface, one property per line, and
 * for each line the object and JSON path it holds (to name the field a diagnostic is about).
 */
function typedSource(list) {
  const lines = [];
  const where = [];
  const emit = (text, object, path) => {
    lines.push(text);
    where.push({ object, path });
  };
  const write = (value, indent, object, path, prefix, suffix) => {
    const pad = '  '.repeat(indent);
    if (Array.isArray(value)) {
      emit(`${pad}${prefix}[`, object, path);
      value.forEach((item, i) => write(item, indent + 1, object, `${path}[${i}]`, '', ','));
      emit(`${pad}]${suffix}`, object, path);
    } else if (value !== null && typeof value === 'object') {
      emit(`${pad}${prefix}{`, object, path);
      for (const [key, item] of Object.entries(value)) write(item, indent + 1, object, `${path}.${key}`, `${JSON.stringify(key)}: `, ',');
      emit(`${pad}}${suffix}`, object, path);
    } else {
      emit(`${pad}${prefix}${JSON.stringify(value)}${suffix}`, object, path);
    }
  };
  const imports = new Map();
  list.forEach((object, index) => {
    const [group, version] = apiOf(object);
    const specifier = modelsOf(group, version);
    const alias = `T${imports.size}`;
    if (!imports.has(`${specifier}#${object.kind}`)) imports.set(`${specifier}#${object.kind}`, { specifier, kind: object.kind, alias });
    const type = imports.get(`${specifier}#${object.kind}`).alias;
    write(object, 0, nameOf(object), '', `export const o${index}: ${type} = `, ';');
  });
  const head = [...imports.values()].map(({ specifier, kind, alias }) => `import type { I${kind} as ${alias} } from ${JSON.stringify(specifier)};`);
  return { text: [...head, ...lines].join('\n'), where: [...head.map(() => ({ object: '', path: '' })), ...where] };
}

/** Every TypeScript error in the objects: an unknown field, a wrong type, a missing required field. */
async function typeCheck(list) {
  if (list.length === 0) return;
  const { default: ts } = await load('typescript');
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const file = join(root, 'tools/deploy/__k8s-objects__.ts');
  const { text, where } = typedSource(list);
  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts'],
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === file ? text : readFile(name));
  host.fileExists = (
    (exists) => (name) =>
      name === file || exists(name)
  )(host.fileExists.bind(host));
  host.getSourceFile = (name, languageVersion, ...rest) =>
    name === file ? ts.createSourceFile(name, text, languageVersion, true) : getSourceFile(name, languageVersion, ...rest);
  const program = ts.createProgram([file], options, host);
  const source = program.getSourceFile(file);
  for (const diagnostic of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
    const line = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line;
    const { object, path } = where[line] ?? { object: '?', path: '' };
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n')[0];
    problems.push(`${object || 'objects'}: ${path ? `${path.slice(1)}: ` : ''}${message}`);
  }
}

if (process.argv.includes('--kubernetes')) {
  const known = await validateSchemas(objects);
  await typeCheck(known);
}

if (problems.length) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(JSON.stringify(objects));
