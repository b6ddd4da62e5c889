import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { OPERATION_NAMES } from './runtime-operations';

/*
 * A runtime scenario fixture (scenarios/*.json): a definition, the subjects who act, and steps, each
 * one operation over HTTP with its expected answer and the state it leaves. Shorthands keep the
 * fixtures short: a task is "node:assignee" (to pick one) or "node:assignee:Status" (to expect one);
 * the object forms add `visit` and `owner`.
 */

const name = z.string().min(1);
const TASK_STATUSES = ['Pending', 'Approved', 'Rejected', 'Transferred', 'Delegated', 'Cancelled'] as const;
const INSTANCE_STATUSES = ['Running', 'Approved', 'Rejected', 'Withdrawn', 'Terminated', 'Cancelled', 'Suspended'] as const;

function splitShorthand(text: string, parts: number, ctx: z.RefinementCtx): string[] {
  const split = text.split(':');
  if (split.length !== parts || split.some((p) => p.length === 0)) {
    ctx.addIssue({ code: 'custom', message: `"${text}": expected ${parts === 2 ? 'node:assignee' : 'node:assignee:Status'}` });
    return z.NEVER;
  }
  return split;
}

/** Which task a step acts on: the Pending one (unless `status` says otherwise) of `assignee` at `node`, the latest if several. */
const taskPick = z.union([
  z.string().transform((text, ctx) => {
    const [node, assignee] = splitShorthand(text, 2, ctx);
    return { node: node as string, assignee: assignee as string, status: 'Pending' as const, visit: undefined as number | undefined };
  }),
  z.strictObject({ node: name, assignee: name, status: z.enum(TASK_STATUSES).default('Pending'), visit: z.number().int().positive().optional() }),
]);

/** An expected task. `owner` is always compared (absent: null, i.e. not a delegate's task); `visit` only when given. */
const taskState = z.union([
  z.string().transform((text, ctx) => {
    const [node, assignee, status] = splitShorthand(text, 3, ctx);
    if (!(TASK_STATUSES as readonly string[]).includes(status as string)) {
      ctx.addIssue({ code: 'custom', message: `"${text}": status must be one of ${TASK_STATUSES.join(', ')}` });
      return z.NEVER;
    }
    return {
      node: node as string,
      assignee: assignee as string,
      status: status as string,
      owner: null as string | null,
      visit: undefined as number | undefined,
    };
  }),
  z
    .strictObject({
      node: name,
      assignee: name,
      status: z.enum(TASK_STATUSES),
      owner: name.nullable().default(null),
      visit: z.number().int().positive().optional(),
    })
    .transform((t) => ({ ...t, status: t.status as string })),
]);

/** An expected open task ("node:assignee" or with `owner` / `visit`): the same as a task state with status Pending. */
const openTask = z.union([
  z.string().transform((text, ctx) => {
    const [node, assignee] = splitShorthand(text, 2, ctx);
    return { node: node as string, assignee: assignee as string, status: 'Pending', owner: null as string | null, visit: undefined as number | undefined };
  }),
  z
    .strictObject({ node: name, assignee: name, owner: name.nullable().default(null), visit: z.number().int().positive().optional() })
    .transform((t) => ({ ...t, status: 'Pending' })),
]);
export type ExpectedTask = z.output<typeof taskState>;

/**
 * The state after a step, read back through the routes (progress, todo count) and the outbox.
 * `open` is the exact set of Pending tasks and `tasks` the exact set of every task of the instance
 * (any order): nothing unlisted may exist. Everything else is checked only when given.
 */
const expectedState = z.strictObject({
  /** Instances stored in the fixture's tenant (e.g. 0 after a refused start: nothing written). */
  instances: z.number().int().nonnegative().optional(),
  instance: z.enum(INSTANCE_STATUSES).optional(),
  returned: z.boolean().optional(),
  /** Some of the instance's variables: each one named must equal its value exactly (unnamed ones are not checked). */
  variables: z.record(z.string(), z.unknown()).optional(),
  priority: z.number().int().optional(),
  version: z.number().int().positive().optional(),
  open: z.array(openTask).optional(),
  tasks: z.array(taskState).optional(),
  /** Progress states of the named nodes. */
  nodes: z.record(z.string(), z.enum(['not-reached', 'passed', 'waiting'])).optional(),
  /** Todo badge counts per subject (GET /tasks/todo/count as that subject). */
  todo: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** Outbox events about the instance so far, per type (cumulative counts). */
  events: z.record(z.string().startsWith('workflow.'), z.number().int().nonnegative()).optional(),
});

const step = z.strictObject({
  /** Why the step is there, when the op does not say it. */
  note: z.string().optional(),
  as: name,
  op: z.enum(OPERATION_NAMES),
  /** The instance the step acts on or is about (default "main"); a creating step gives the new instance this name. */
  instance: name.default('main'),
  task: taskPick.optional(),
  /** The request body. Strings "$task:node:assignee", "$instance:name", "$version" and "$version-N" are replaced by ids and the current version. */
  body: z.record(z.string(), z.unknown()).optional(),
  /** The answer: status (default: the operation's success status), problem code, a subset of the body ("$any": any value but null). */
  expect: z.strictObject({ status: z.number().int(), code: z.string().optional(), body: z.record(z.string(), z.unknown()).optional() }).optional(),
  then: expectedState.optional(),
});
export type ScenarioStep = z.output<typeof step>;

export const scenarioSchema = z.strictObject({
  name,
  description: z.string().min(1),
  /** Who acts, with their grants: profile names (runtime-tenant.ts PROFILES; each is also a role of that name) or permission codes. */
  subjects: z.record(
    z.string(),
    z.union([name, z.array(name).min(1)]).transform((g) => (Array.isArray(g) ? g : [g])),
  ),
  /** Membership-only roles (no permissions), for role assignees. */
  roles: z.record(z.string(), z.array(name)).default({}),
  /** The definition JSON, published through `POST /definitions/{key}/deployments`. */
  definition: z.record(z.string(), z.unknown()),
  steps: z.array(step).min(1),
});
export type Scenario = z.output<typeof scenarioSchema> & { file: string; slug: string };

export const SCENARIO_DIR = join(__dirname, 'scenarios');

/** Every fixture of the folder, parsed; a malformed one fails loudly, naming its file and the path of the problem. */
export function loadScenarios(dir = SCENARIO_DIR): Scenario[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const scenarios = files.map((file) => {
    const parsed = scenarioSchema.safeParse(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
      throw new Error(`scenario ${file} is malformed:\n${problems}`);
    }
    const slug = file.replace(/\.json$/, '');
    if (!/^[a-z0-9](?:[a-z0-9-]{0,50}[a-z0-9])?$/.test(slug))
      throw new Error(`scenario file name ${file}: use a lower-case kebab slug (it is the definition key)`);
    for (const s of parsed.data.steps) {
      if (!(s.as in parsed.data.subjects)) throw new Error(`scenario ${file}: step "${s.op}" acts as "${s.as}", who is not among its subjects`);
    }
    return { ...parsed.data, file, slug };
  });
  const names = scenarios.map((s) => s.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new Error(`two scenarios are named "${twice}"`);
  return scenarios;
}
