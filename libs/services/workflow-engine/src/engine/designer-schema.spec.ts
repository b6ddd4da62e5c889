import { APPROVAL_MODES, ASSIGNEE_KINDS, EMPTY_ASSIGNEE_POLICIES, TIMEOUT_ACTIONS } from './definition.model';
import { DESIGNER_SCHEMA, DesignerField } from './designer-schema';

interface Catalog {
  nodeKinds: Array<{ kind: string; description?: string; fields: DesignerField[] }>;
  resolvers: Array<{ kind: string; fields: DesignerField[] }>;
  handlers: Record<string, Array<{ name: string; description: string }>>;
  conditions: { language: string; operators: string[] };
}

describe('DESIGNER_SCHEMA', () => {
  const catalog = DESIGNER_SCHEMA as unknown as Catalog;
  const approval = catalog.nodeKinds.find((k) => k.kind === 'approval');
  const field = (name: string) => approval?.fields.find((f) => f.name === name);

  it('lists every node kind with a description', () => {
    expect(catalog.nodeKinds.map((k) => k.kind)).toEqual(['approval', 'exclusive', 'parallel', 'cc', 'end']);
    for (const kind of catalog.nodeKinds) expect(kind.description).toEqual(expect.any(String));
  });

  it('derives the approval fields from the model: values, defaults, ranges, requiredness', () => {
    expect(field('key')).toMatchObject({ type: 'string', required: true });
    expect(field('mode')).toMatchObject({ values: [...APPROVAL_MODES], default: 'sequential', required: false });
    expect(field('passPercent')).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, required: false });
    expect(field('assignees')).toMatchObject({ type: 'assignee[]', required: true });
    expect(field('timeout')?.fields?.find((f) => f.name === 'action')).toMatchObject({ values: [...TIMEOUT_ACTIONS], required: true });
    // The action's targets and the reminder interval: optional in the form, required per action by the static rules.
    expect(field('timeout')?.fields?.map((f) => [f.name, f.type, f.required])).toEqual([
      ['after', 'string|integer', true],
      ['action', 'string', true],
      ['repeatEvery', 'string|integer', false],
      ['transferTo', 'string', false],
      ['escalateTo', 'assignee', false],
    ]);
    expect(field('operations')?.fields?.map((f) => f.name)).toEqual(['transfer', 'delegate', 'addSigner', 'rejectTargets']);
    expect(catalog.nodeKinds.find((k) => k.kind === 'end')?.fields.find((f) => f.name === 'result')).toMatchObject({ values: ['approved', 'rejected'] });
  });

  it('describes a branch', () => {
    const branch = (DESIGNER_SCHEMA as { branchFields: DesignerField[] }).branchFields;
    expect(branch.map((f) => [f.name, f.type, f.required])).toEqual([
      ['key', 'string', false],
      ['name', 'string', false],
      ['condition', 'jsonlogic', false],
      ['default', 'boolean', false],
      ['nodes', 'node[]', true],
    ]);
  });

  it('has the resolver and handler catalogs', () => {
    expect(catalog.resolvers.map((r) => r.kind)).toEqual([...ASSIGNEE_KINDS]);
    expect(catalog.resolvers.find((r) => r.kind === 'role')?.fields).toEqual([expect.objectContaining({ name: 'role', required: true })]);
    expect(catalog.handlers['timeout']?.map((h) => h.name)).toEqual([...TIMEOUT_ACTIONS]);
    expect(catalog.handlers['emptyAssignee']?.map((h) => h.name)).toEqual([...EMPTY_ASSIGNEE_POLICIES]);
    for (const handler of Object.values(catalog.handlers).flat()) expect(handler.description).toEqual(expect.any(String));
    expect(catalog.conditions.operators).not.toContain('log');
  });
});
