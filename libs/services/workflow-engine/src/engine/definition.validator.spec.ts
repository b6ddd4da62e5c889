import Ajv from 'ajv';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileDefinition, DefinitionProblemCode, validateDefinition } from './definition.validator';
import { DEFINITION_JSON_SCHEMA } from './designer-schema';
import { simulateDefinition, SimulationRequest, simulationRequestSchema } from './simulation';

interface InvalidFixture {
  code: string;
  name: string;
  /** Refused by the compilation already (and by the JSON Schema), not only by the static rules. */
  structural: boolean;
  definition: unknown;
  expect: Array<{ code: string; nodeKey: string }>;
}

const fixtures = join(__dirname, 'fixtures');
const invalid = JSON.parse(readFileSync(join(fixtures, 'invalid-definitions.json'), 'utf8')) as InvalidFixture[];
const validDefinitions = readdirSync(join(fixtures, 'simulation')).flatMap((file) => {
  const scenario = JSON.parse(readFileSync(join(fixtures, 'simulation', file), 'utf8')) as { definition: unknown; cases: Array<{ definition?: unknown }> };
  return [scenario.definition, ...scenario.cases.flatMap((c) => (c.definition ? [c.definition] : []))].map((definition) => ({ file, definition }));
});

describe('validateDefinition', () => {
  it.each(invalid)('$code: $name', (fixture) => {
    const validation = validateDefinition(fixture.definition);
    expect(validation.valid).toBe(false);
    // Exactly the expected problems: a rule that also fires elsewhere would be a false positive.
    expect(validation.problems.map(({ code, nodeKey }) => ({ code, nodeKey }))).toEqual(fixture.expect);
    for (const problem of validation.problems) expect(problem.path).toMatch(/^nodes\[\d+\]/);
    expect(compileDefinition(fixture.definition).ok).toBe(!fixture.structural);
  });

  it('has a failing fixture for every code', () => {
    expect(new Set(invalid.map((f) => f.code))).toEqual(new Set(Object.values(DefinitionProblemCode)));
  });

  it('accepts every scenario definition', () => {
    for (const { definition } of validDefinitions) expect(validateDefinition(definition)).toEqual({ valid: true, problems: [] });
  });

  it('refuses what is not a definition at all, with a path', () => {
    expect(compileDefinition(null)).toMatchObject({ ok: false, problems: [{ code: 'Workflow.Definition.Invalid' }] });
    expect(compileDefinition({ name: 'x', nodes: [], extra: 1 })).toMatchObject({ ok: false });
    const result = compileDefinition({ name: 'x', nodes: [{ kind: 'cc', key: 'c1', recipients: [{ kind: 'user', subjects: [] }] }] });
    expect(result).toMatchObject({ ok: false, problems: [{ code: 'Workflow.Definition.Invalid', nodeKey: 'c1', path: 'nodes[0].recipients[0].subjects' }] });
  });

  it('fills the defaults: sequential mode, error on empty assignees', () => {
    const result = compileDefinition({ name: 'x', nodes: [{ kind: 'approval', key: 'a1', assignees: [{ kind: 'initiator' }] }] });
    expect(result).toMatchObject({ ok: true, definition: { nodes: [{ mode: 'sequential', emptyAssignee: 'error' }] } });
  });
});

describe('docs/definitions-format.md', () => {
  const blocks = [...readFileSync(join(__dirname, '..', '..', 'docs', 'definitions-format.md'), 'utf8').matchAll(/```json\n([\s\S]*?)```/g)].map(
    (m) => m[1] ?? '',
  );

  it('shows a definition that validates and a simulation request that parses', () => {
    expect(validateDefinition(JSON.parse(blocks[0] ?? ''))).toEqual({ valid: true, problems: [] });
    expect(simulationRequestSchema.safeParse(JSON.parse(blocks.at(-1) ?? '')).success).toBe(true);
  });
});

describe('DEFINITION_JSON_SCHEMA', () => {
  // ajv 6 is the copy at the top of node_modules; the served schema uses only keywords draft-07 shares
  // with 2020-12 (`$defs` is reached through a JSON pointer); `format` is skipped, the duration's `pattern` still applies.
  const { $schema, ...schema } = DEFINITION_JSON_SCHEMA;
  const validate = new Ajv({ format: false }).compile(schema);

  it('is a 2020-12 schema with the node union defined once', () => {
    expect($schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(Object.keys(schema['$defs'] as object)).toContain('FlowNode');
  });

  it.each(validDefinitions)('accepts the valid definition of $file', ({ definition }) => {
    expect(validate(definition)).toBe(true);
  });

  it.each(invalid.filter((f) => f.structural))('rejects $name', ({ definition }) => {
    expect(validate(definition)).toBe(false);
  });
});

/** Well-formed trees: unique keys, one default per exclusive gateway, conditions from the allowed operators. */
const condition = fc.oneof(
  fc.record({ '>': fc.tuple(fc.constant({ var: 'amount' }), fc.integer()) }),
  fc.record({ '==': fc.tuple(fc.constant({ var: 'kind' }), fc.constantFrom('a', 'b')) }),
  fc.record({ and: fc.tuple(fc.record({ '<': fc.tuple(fc.constant({ var: 'amount' }), fc.integer()) }), fc.constant(true)) }),
);
const approval = fc.record({
  kind: fc.constant('approval'),
  assignees: fc.constantFrom([{ kind: 'user', subjects: ['u1', 'u2'] }], [{ kind: 'initiator' }], [{ kind: 'role', role: 'partners' }]),
  mode: fc.constantFrom('sequential', 'all', 'any'),
});
const ratio = fc.record({
  kind: fc.constant('approval'),
  assignees: fc.constant([{ kind: 'user', subjects: ['u1', 'u2', 'u3'] }]),
  mode: fc.constant('ratio'),
  passPercent: fc.integer({ min: 1, max: 100 }),
});
const cc = fc.record({ kind: fc.constant('cc'), recipients: fc.constant([{ kind: 'initiator' }]) });
const { sequence } = fc.letrec<{ sequence: unknown[]; node: unknown }>((tie) => ({
  sequence: fc
    .tuple(fc.array(tie('node'), { minLength: 1, maxLength: 3 }), fc.option(fc.constantFrom('approved', 'rejected'), { freq: 4 }))
    .map(([nodes, end]) => (end ? [...nodes, { kind: 'end', result: end }] : nodes)),
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    approval,
    ratio,
    cc,
    fc.tuple(fc.array(fc.tuple(condition, tie('sequence')), { minLength: 1, maxLength: 2 }), tie('sequence')).map(([branches, fallback]) => ({
      kind: 'exclusive',
      branches: [...branches.map(([c, nodes]) => ({ condition: c, nodes })), { default: true, nodes: fallback }],
    })),
    fc.array(tie('sequence'), { minLength: 2, maxLength: 3 }).map((branches) => ({ kind: 'parallel', branches: branches.map((nodes) => ({ nodes })) })),
  ),
}));

/** Keys are given afterwards, in document order, so they are unique. */
function keyed(nodes: unknown[], next = { n: 0 }): unknown[] {
  return nodes.map((node) => {
    const n = node as Record<string, unknown> & { branches?: Array<{ nodes: unknown[] }> };
    const key = `n${++next.n}`;
    return n.branches ? { ...n, key, branches: n.branches.map((b) => ({ ...b, nodes: keyed(b.nodes, next) })) } : { ...n, key };
  });
}

describe('generated well-formed trees', () => {
  const directory = { membersOfRole: async () => ['pat', 'paula'] };

  it('always compile, validate, match the JSON Schema and simulate to an outcome', async () => {
    const { $schema: _ignored, ...schema } = DEFINITION_JSON_SCHEMA;
    const validate = new Ajv({ format: false }).compile(schema);
    await fc.assert(
      fc.asyncProperty(
        sequence,
        fc.record({ amount: fc.integer(), kind: fc.constantFrom('a', 'b') }),
        fc.constantFrom<SimulationRequest['votes']>(undefined, {}),
        fc.constantFrom('approve', 'reject'),
        async (nodes, variables, _none, vote) => {
          const json = { name: 'generated', nodes: keyed(nodes) };
          expect(validateDefinition(json)).toEqual({ valid: true, problems: [] });
          expect(validate(json)).toBe(true);
          const compiled = compileDefinition(json);
          if (!compiled.ok) throw new Error('unreachable');
          const keys =
            JSON.stringify(json)
              .match(/"key":"n\d+"/g)
              ?.map((k) => k.slice(7, -1)) ?? [];
          const votes = Object.fromEntries(keys.map((k) => [k, vote]));
          const result = await simulateDefinition(compiled.definition, { variables, votes }, { tenantId: 't', initiator: 'ivy', directory });
          expect(['approved', 'rejected', 'waiting']).toContain(result.outcome);
          expect(result.path[0]).toBe('start');
          for (const key of result.path.slice(1)) expect(keys).toContain(key);
        },
      ),
      { numRuns: 200 },
    );
  });
});
