// Lints sources as if they were files at the given paths, with the workspace's ESLint config, for
// the module-boundary spec: one process (ESLint and its Nx plugin load once) answering one request
// per line of stdin, `{"file": "<path from the root>", "source": "..."}`, with one line of JSON on
// stdout, the messages `[{ ruleId, message }]`. Ends when stdin ends. Jest's module sandbox cannot
// load ESLint's flat config (a dynamic import), hence a process of its own.
import { createInterface } from 'node:readline';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root });

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  const { file, source } = JSON.parse(line);
  const [result] = await eslint.lintText(source, { filePath: join(root, file) });
  const messages = (result?.messages ?? []).map(({ ruleId, message }) => ({ ruleId, message }));
  process.stdout.write(`${JSON.stringify(messages)}\n`);
}
