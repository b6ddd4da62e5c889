import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkflowDefinition } from './definition.model';
import { compileDefinition, validateDefinition } from './definition.validator';
import { AssigneeDirectory, simulateDefinition, SimulationContext, SimulationResult, simulationRequestSchema } from './simulation';

/**
 * Scenario fixtures (fixtures/simulation/*.json): a definition, then cases of variables and votes
 * with the expected path, tasks and outcome. Tasks are written `"<node> <assignees> <status>"`, with
 * ` #<visit>` from the second visit on, so a fixture reads like the flow it describes.
 */
interface ScenarioCase {
  name: string;
  definition?: unknown;
  request: unknown;
  expect: Partial<Record<'path' | 'tasks' | 'outcome' | 'waitingAt' | 'decisions' | 'notifications' | 'autoPassed' | 'returns', unknown>> & {
    error?: { code: string; nodeKey?: string };
  };
}
interface Scenario {
  description: string;
  definition: unknown;
  cases: ScenarioCase[];
}

const ROLES: Record<string, string[]> = { partners: ['pat', 'paula', 'pete'], associates: [] };

/** The directory double also proves the tenant is passed through. */
const directory: AssigneeDirectory = {
  membersOfRole: async (tenantId, role) => {
    if (tenantId !== 't1') throw new Error(`unexpected tenant ${tenantId}`);
    return ROLES[role] ?? [];
  },
};
const context: SimulationContext = { tenantId: 't1', initiator: 'ivy', directory };

const dir = join(__dirname, 'fixtures', 'simulation');
const scenarios = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((file) => ({ file, scenario: JSON.parse(readFileSync(join(dir, file), 'utf8')) as Scenario }));

function compact(result: SimulationResult) {
  return {
    path: result.path,
    tasks: result.tasks.map((t) => `${t.nodeKey} ${t.assignees.join(',')} ${t.status}${t.visit > 1 ? ` #${t.visit}` : ''}`),
    outcome: result.outcome,
    waitingAt: result.waitingAt,
    decisions: result.decisions.map((d) => `${d.gateway} ${d.branchKey ?? d.branch} ${d.by}`),
    notifications: result.notifications.map((n) => `${n.nodeKey} ${n.recipients.join(',')}`),
    autoPassed: result.autoPassed,
    returns: result.returns.map((r) => `${r.from}>${r.to}`),
  };
}

describe('simulateDefinition (fixtures)', () => {
  it('has a fixture for every node kind and approval mode', () => {
    const text = scenarios.map((s) => JSON.stringify(s.scenario)).join();
    for (const kind of ['approval', 'exclusive', 'parallel', 'cc', 'end']) expect(text).toContain(`"kind":"${kind}"`);
    for (const mode of ['sequential', 'all', 'any', 'ratio']) expect(text).toContain(`"mode":"${mode}"`);
  });

  describe.each(scenarios)('$file', ({ scenario }) => {
    it.each(scenario.cases)('$name', async (testCase) => {
      const json = testCase.definition ?? scenario.definition;
      // Every scenario definition is a valid one: simulation is only offered on what validates.
      expect(validateDefinition(json).problems).toEqual([]);
      const compiled = compileDefinition(json);
      if (!compiled.ok) throw new Error('unreachable');
      const request = simulationRequestSchema.parse(testCase.request);
      const result = await simulateDefinition(compiled.definition, request, context);
      const { error, ...expected } = testCase.expect;
      const actual = compact(result);
      expect(Object.fromEntries(Object.keys(expected).map((k) => [k, actual[k as keyof typeof actual]]))).toEqual(expected);
      if (error) expect(result.error).toMatchObject(error);
      else expect(result.error).toBeUndefined();
    });
  });
});

describe('simulateDefinition', () => {
  const definition = (nodes: unknown[]) => {
    const compiled = compileDefinition({ name: 'd', nodes });
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    return compiled.definition;
  };

  it('writes nothing: the definition and the request are left as they were', async () => {
    const def = definition([{ kind: 'approval', key: 'a1', assignees: [{ kind: 'user', subjects: ['u1'] }] }]);
    const request = simulationRequestSchema.parse({ variables: { x: 1 }, votes: { a1: 'approve' } });
    const before = JSON.stringify([def, request]);
    await simulateDefinition(def, request, context);
    expect(JSON.stringify([def, request])).toBe(before);
  });

  it('runs off the end of the main sequence approved', async () => {
    const result = await simulateDefinition(definition([{ kind: 'cc', key: 'c', recipients: [{ kind: 'initiator' }] }]), {}, context);
    expect(result).toMatchObject({ path: ['start', 'c'], outcome: 'approved', notifications: [{ nodeKey: 'c', recipients: ['ivy'] }] });
  });

  it('refuses an unknown request field (votes must be spelt right)', () => {
    expect(simulationRequestSchema.safeParse({ vote: {} }).success).toBe(false);
    expect(simulationRequestSchema.safeParse({ votes: { a1: 'maybe' } }).success).toBe(false);
  });

  it('fails, naming the gateway, when a checked condition cannot be evaluated on the variables', async () => {
    const def = definition([
      {
        kind: 'exclusive',
        key: 'g',
        branches: [
          { condition: { '>': [{ var: 'n' }, 1] }, nodes: [{ kind: 'cc', key: 'c1', recipients: [{ kind: 'initiator' }] }] },
          { default: true, nodes: [{ kind: 'cc', key: 'c2', recipients: [{ kind: 'initiator' }] }] },
        ],
      },
    ]);
    // Variables are caller JSON: an object that cannot be turned into a primitive makes `>` throw.
    const result = await simulateDefinition(def, { variables: { n: { toString: 1, valueOf: 1 } } }, context);
    expect(result).toMatchObject({ outcome: 'failed', error: { code: 'Workflow.Runtime.ConditionFailed', nodeKey: 'g' } });
  });

  it('compiles what it is handed: a stored definition gets its defaults, a broken one a failed outcome', async () => {
    const stored = {
      name: 'd',
      nodes: [{ kind: 'approval', key: 'a1', assignees: [{ kind: 'user', subjects: ['u1', 'u2'] }] }],
    } as unknown as WorkflowDefinition;
    expect((await simulateDefinition(stored, { votes: { a1: ['approve'] } }, context)).tasks.map((t) => t.status)).toEqual(['approved', 'pending']);
    const broken = { name: 'd', nodes: [] } as unknown as WorkflowDefinition;
    expect(await simulateDefinition(broken, {}, context)).toMatchObject({ outcome: 'failed', error: { code: 'Workflow.Definition.Invalid' } });
  });

  it('reports a condition the walker refuses as failed, not as a thrown error', async () => {
    // compile accepts any object as a condition; only validation checks operators.
    const def = definition([
      {
        kind: 'exclusive',
        key: 'g',
        branches: [
          { condition: { log: 'x' }, nodes: [{ kind: 'cc', key: 'c1', recipients: [{ kind: 'initiator' }] }] },
          { default: true, nodes: [{ kind: 'cc', key: 'c2', recipients: [{ kind: 'initiator' }] }] },
        ],
      },
    ]);
    const result = await simulateDefinition(def, {}, context);
    expect(result).toMatchObject({ outcome: 'failed', error: { code: 'Workflow.Definition.ConditionInvalid', nodeKey: 'g' } });
  });
});
