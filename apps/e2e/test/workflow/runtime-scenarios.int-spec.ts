import { isDeepStrictEqual } from 'node:util';
import { describeWithServers } from '@lp/platform/testing';
import { OperationsTestPlatform } from '../support/operations-platform';
import { RUNTIME_OPERATIONS, RuntimeOperation } from './runtime-operations';
import { ExpectedTask, loadScenarios, Scenario, ScenarioStep } from './runtime-scenario.schema';
import { Progress, RuntimeTenant, RuntimeTask } from './runtime-tenant';

/*
 * Runs every fixture of scenarios/*.json against the real runtime (HTTP, PostgreSQL, RabbitMQ,
 * Redis): each in a tenant of its own (`scn-<file>`), its definition published through the real
 * route under the key `<file>`. A failing step names the fixture file, the step and every
 * difference it found. The fixture format is runtime-scenario.schema.ts; the operations are
 * runtime-operations.ts. The fixtures run a few at a time (tenants keep them apart).
 */

/** `SCENARIO=<part of a file name>` runs only the matching fixtures (every fixture's run starts in beforeAll, so jest's -t alone would not save their time). */
const only = process.env['SCENARIO'];
const scenarios = loadScenarios().filter((s) => !only || s.slug.includes(only));

type Response = { status: number; body: Record<string, unknown> & { code?: string }; headers: Record<string, string> };

const show = (t: { node: string; assignee: string; status: string; owner: string | null; visit?: number }) =>
  `${t.node}:${t.assignee}:${t.status}${t.owner ? `<${t.owner}` : ''}${t.visit !== undefined ? `@${t.visit}` : ''}`;

/**
 * Whether `actual` has every field of `expected` with an equal value, at every level; arrays element
 * by element, same length (as toMatchObject). The expected value "$any" stands for any value but
 * null (an id, a time).
 */
function matches(actual: unknown, expected: unknown): boolean {
  if (expected === '$any') return actual !== null && actual !== undefined;
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => matches(actual[i], e));
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== 'object') return false;
    return Object.entries(expected).every(([k, v]) => matches((actual as Record<string, unknown>)[k], v));
  }
  return isDeepStrictEqual(actual, expected);
}

/**
 * Matches expected tasks to actual ones one to one (any order; an expected task without `visit`
 * matches any visit, so the ones with a visit are placed first). Answers the differences.
 */
function taskDifferences(label: string, expected: ExpectedTask[], actual: RuntimeTask[]): string[] {
  const left = actual.map((t) => ({ node: t.nodeKey, assignee: t.assignee, status: t.status, owner: t.owner, visit: t.visit }));
  const missing: string[] = [];
  for (const want of [...expected].sort((a, b) => Number(a.visit === undefined) - Number(b.visit === undefined))) {
    const i = left.findIndex(
      (t) =>
        t.node === want.node &&
        t.assignee === want.assignee &&
        t.status === want.status &&
        t.owner === want.owner &&
        (want.visit === undefined || t.visit === want.visit),
    );
    if (i < 0) missing.push(show(want));
    else left.splice(i, 1);
  }
  if (missing.length === 0 && left.length === 0) return [];
  return [
    `${label}: missing [${missing.join(', ')}], unexpected [${left.map(show).join(', ')}]; all: [${actual
      .map((t) => show({ node: t.nodeKey, assignee: t.assignee, status: t.status, owner: t.owner, visit: t.visit }))
      .join(', ')}]`,
  ];
}

/** One fixture's run: its tenant, its named instances, its steps in order. */
class ScenarioRun {
  private tenant!: RuntimeTenant;
  private readonly instances = new Map<string, string>();

  constructor(
    private readonly platform: OperationsTestPlatform,
    private readonly scenario: Scenario,
  ) {}

  async run(): Promise<void> {
    const { scenario } = this;
    this.tenant = await RuntimeTenant.create(this.platform, `scn-${scenario.slug}`, scenario.subjects, scenario.roles);
    await this.tenant.publish(scenario.slug, scenario.definition);
    for (const [i, step] of scenario.steps.entries()) {
      try {
        await this.step(step);
      } catch (error) {
        const what = `${step.as} ${step.op}${step.task ? ` ${step.task.node}:${step.task.assignee}` : ''} on "${step.instance}"${step.note ? ` (${step.note})` : ''}`;
        throw new Error(`scenario ${scenario.file} ("${scenario.name}"), step ${i + 1} of ${scenario.steps.length}: ${what}\n${(error as Error).message}`);
      }
    }
  }

  private instanceId(name: string): string {
    const id = this.instances.get(name);
    if (!id) throw new Error(`no instance named "${name}" was started (started: ${[...this.instances.keys()].join(', ') || 'none'})`);
    return id;
  }

  private async step(step: ScenarioStep): Promise<void> {
    const operation: RuntimeOperation = RUNTIME_OPERATIONS[step.op];
    let id = '';
    if (operation.on === 'task') {
      if (!step.task) throw new Error(`"${step.op}" acts on a task: the step needs "task"`);
      id = (await this.pickTask(this.instanceId(step.instance), step.task)).id;
    } else if (operation.on === 'instance') {
      id = this.instanceId(step.instance);
    }
    let body = (await this.resolve(step.body ?? {}, step.instance)) as Record<string, unknown>;
    if (operation.on === 'creates-instance') body = { definitionKey: this.scenario.slug, businessKey: step.instance, ...body };
    const client = this.tenant.as(step.as);
    const res = (operation.method === 'get' ? await client.get(operation.path(id)) : await client.post(operation.path(id)).send(body)) as unknown as Response;

    const problems = this.answerDifferences(step, operation, res);
    if (problems.length > 0) throw new Error(problems.join('\n'));
    if (operation.on === 'creates-instance' && res.status < 300) this.instances.set(step.instance, res.body['id'] as string);
    if (step.then) {
      const state = await this.stateDifferences(step);
      if (state.length > 0) throw new Error(state.join('\n'));
    }
  }

  private answerDifferences(step: ScenarioStep, operation: RuntimeOperation, res: Response): string[] {
    const status = step.expect?.status ?? operation.ok ?? 200;
    const answer = `answer ${res.status} ${JSON.stringify(res.body)}`;
    if (res.status !== status) return [`expected status ${status}, got ${answer}`];
    const problems: string[] = [];
    if (step.expect?.code !== undefined) {
      if (!/application\/problem\+json/.test(res.headers['content-type'] ?? '')) problems.push(`expected problem+json, got ${res.headers['content-type']}`);
      if (res.body.code !== step.expect.code) problems.push(`expected problem code ${step.expect.code}, got ${answer}`);
    }
    if (step.expect?.body !== undefined && !matches(res.body, step.expect.body))
      problems.push(`expected the body to include ${JSON.stringify(step.expect.body)}, got ${answer}`);
    return problems;
  }

  private async stateDifferences(step: ScenarioStep): Promise<string[]> {
    const then = step.then ?? {};
    const problems: string[] = [];
    if (then.instances !== undefined) {
      const [row] = await this.tenant.sql.query(`SELECT count(*)::int AS n FROM workflow.instance WHERE tenant_id = $1`, [this.tenant.tenantId]);
      if (row.n !== then.instances) problems.push(`instances stored in the tenant: expected ${then.instances}, got ${row.n}`);
    }
    const needsProgress = ['instance', 'returned', 'variables', 'priority', 'version', 'nodes', 'open', 'tasks'].some((k) => k in then);
    if (needsProgress) {
      const progress = await this.tenant.progress(this.instanceId(step.instance));
      problems.push(...this.progressDifferences(then, progress));
    }
    for (const [subject, count] of Object.entries(then.todo ?? {})) {
      const res = await this.tenant.as(subject).get('/api/workflow/tasks/todo/count');
      if (res.status !== 200 || res.body.count !== count)
        problems.push(`todo count of ${subject}: expected ${count}, got ${res.status} ${JSON.stringify(res.body)}`);
    }
    if (then.events) {
      const counts = await this.tenant.eventCounts(this.instanceId(step.instance));
      for (const [type, count] of Object.entries(then.events)) {
        if ((counts[type] ?? 0) !== count) problems.push(`events ${type}: expected ${count}, got ${counts[type] ?? 0} (all: ${JSON.stringify(counts)})`);
      }
    }
    return problems;
  }

  private progressDifferences(then: NonNullable<ScenarioStep['then']>, progress: Progress): string[] {
    const problems: string[] = [];
    const { instance } = progress;
    if (then.instance !== undefined && instance.status !== then.instance) problems.push(`instance status: expected ${then.instance}, got ${instance.status}`);
    if (then.returned !== undefined && progress.returnedToInitiator !== then.returned)
      problems.push(`returnedToInitiator: expected ${then.returned}, got ${progress.returnedToInitiator}`);
    const unequal = Object.entries(then.variables ?? {}).filter(([name, value]) => !isDeepStrictEqual(instance.variables[name], value));
    if (unequal.length > 0)
      problems.push(
        `variables ${unequal.map(([name]) => name).join(', ')}: expected ${JSON.stringify(then.variables)}, got ${JSON.stringify(instance.variables)}`,
      );
    if (then.priority !== undefined && instance.priority !== then.priority) problems.push(`priority: expected ${then.priority}, got ${instance.priority}`);
    if (then.version !== undefined && instance.version !== then.version) problems.push(`version: expected ${then.version}, got ${instance.version}`);
    for (const [key, state] of Object.entries(then.nodes ?? {})) {
      const node = progress.nodes.find((n) => n.key === key);
      if (node?.state !== state) problems.push(`node ${key}: expected ${state}, got ${node ? node.state : 'no such node'}`);
    }
    const tasks = progress.nodes.flatMap((n) => n.tasks);
    if (then.open)
      problems.push(
        ...taskDifferences(
          'open tasks',
          then.open,
          tasks.filter((t) => t.status === 'Pending'),
        ),
      );
    if (then.tasks) problems.push(...taskDifferences('tasks', then.tasks, tasks));
    return problems;
  }

  private async pickTask(instanceId: string, pick: NonNullable<ScenarioStep['task']>): Promise<RuntimeTask> {
    const tasks = await this.tenant.tasks(instanceId);
    const found = tasks
      .filter(
        (t) => t.nodeKey === pick.node && t.assignee === pick.assignee && t.status === pick.status && (pick.visit === undefined || t.visit === pick.visit),
      )
      .pop();
    if (!found) {
      const all = tasks.map((t) => show({ node: t.nodeKey, assignee: t.assignee, status: t.status, owner: t.owner, visit: t.visit }));
      throw new Error(`no ${pick.status} task of ${pick.assignee} at ${pick.node}; tasks: [${all.join(', ')}]`);
    }
    return found;
  }

  /** Replaces the body's references: "$task:node:assignee", "$instance:name", "$version", "$version-N". */
  private async resolve(value: unknown, instance: string): Promise<unknown> {
    if (Array.isArray(value)) return Promise.all(value.map((v) => this.resolve(v, instance)));
    if (value !== null && typeof value === 'object') {
      const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await this.resolve(v, instance)] as const));
      return Object.fromEntries(entries);
    }
    if (typeof value !== 'string' || !value.startsWith('$')) return value;
    const [kind, ...rest] = value.slice(1).split(':');
    if (kind === 'task' && rest.length === 2) return (await this.tenant.pendingTask(this.instanceId(instance), rest[0] as string, rest[1] as string)).id;
    if (kind === 'instance' && rest.length === 1) return this.instanceId(rest[0] as string);
    const version = /^version(?:-(\d+))?$/.exec(kind ?? '');
    if (version && rest.length === 0) return (await this.tenant.instanceRow(this.instanceId(instance))).version - Number(version[1] ?? 0);
    throw new Error(`unknown reference "${value}" in the body`);
  }
}

/** Fixtures run this many at a time: each has its own tenant, and most of a step is waiting on I/O. */
const CONCURRENCY = 6;

/** Runs `jobs` with at most `limit` in flight; answers each job's own promise (its failure stays its own). */
function pooled(jobs: Array<() => Promise<void>>, limit: number): Array<Promise<void>> {
  const gates: Array<() => void> = [];
  let running = 0;
  const release = () => {
    running--;
    gates.shift()?.();
  };
  return jobs.map(async (job) => {
    if (running >= limit) await new Promise<void>((resolve) => gates.push(resolve));
    running++;
    try {
      await job();
    } finally {
      release();
    }
  });
}

describeWithServers(['postgres', 'rabbitmq', 'redis'], 'workflow-engine: runtime scenarios (scenarios/*.json)', () => {
  const platform = new OperationsTestPlatform('wfscn', { env: { USER_POLICY_LIMIT: '100000' } });
  const runs = new Map<Scenario, Promise<void>>();
  beforeAll(async () => {
    await platform.start();
    // Every fixture starts now, a few at a time; each test below waits for its own fixture's run.
    const started = pooled(
      scenarios.map((scenario) => () => new ScenarioRun(platform, scenario).run()),
      CONCURRENCY,
    );
    scenarios.forEach((scenario, i) => {
      const run = started[i] as Promise<void>;
      run.catch(() => undefined); // reported by the fixture's own test, not as an unhandled rejection
      runs.set(scenario, run);
    });
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled(runs.values());
    await platform.stop();
  });

  it.each(scenarios.map((s) => [`${s.slug}: ${s.name}`, s] as const))('%s', async (_title, scenario) => {
    await runs.get(scenario);
  });
});
