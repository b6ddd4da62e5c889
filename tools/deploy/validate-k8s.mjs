#!/usr/bin/env node
// Reads YAML documents on stdin and prints them as one JSON array. With --kubernetes, each document
// must also be a valid object of the Kubernetes API (types, required fields, enums and formats of the
// official OpenAPI schemas, as bundled by the kubernetes-models package), else it exits 1 listing
// every problem. Its packages live outside the workspace, in the deploy tools directory that .ci/run
// fills (LP_DEPLOY_TOOLS, default ~/.cache/legal-platform/deploy-tools).
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const toolsDir = process.env.LP_DEPLOY_TOOLS || join(homedir(), '.cache', 'legal-platform', 'deploy-tools');
const load = (specifier) => import(pathToFileURL(join(toolsDir, 'node_modules', specifier)).href);

const { parseAllDocuments } = await load('yaml/dist/index.js');
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
      const module = await load(`kubernetes-models/${group ? `${group}/` : ''}${version}/${object.kind}.js`);
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
