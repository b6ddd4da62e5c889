#!/usr/bin/env node
// Reads YAML documents on stdin and prints them as one JSON array. With --kubernetes, each document
// must also be a valid object of the Kubernetes API (types, required fields, enums and formats of the
// official OpenAPI schemas, as bundled by the kubernetes-models package), else it exits 1 listing
// every problem. Both packages are devDependencies of the workspace (kubernetes-validate, the
// strict validator, is a PyPI package, which this machine does not reach).
import { readFileSync } from 'node:fs';

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

if (process.argv.includes('--kubernetes')) {
  for (const object of objects) {
    const name = `${object.kind}/${object.metadata?.name}`;
    const [group, version] = String(object.apiVersion).includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
    let model;
    try {
      const module = await load(`kubernetes-models/${group ? `${group}/` : ''}${version}`);
      model = module[object.kind];
    } catch {
      problems.push(`${name}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new model(object).validate();
    } catch (error) {
      problems.push(`${name}: ${error.message}`);
    }
  }
}

if (problems.length) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(JSON.stringify(objects));
