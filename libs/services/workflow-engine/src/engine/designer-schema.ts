/**
 * The served schemas, derived from the zod declarations in definition.model.ts so the designer,
 * the JSON Schema and the validation cannot disagree.
 */
import { z } from 'zod';
import { CONDITION_OPERATORS } from './condition';
import {
  approvalNodeSchema,
  assigneeSchema,
  ccNodeSchema,
  definitionSchema,
  EMPTY_ASSIGNEE_POLICIES,
  endNodeSchema,
  exclusiveGatewaySchema,
  operationsSchema,
  parallelGatewaySchema,
  START_KEY,
  timeoutSchema,
  TIMEOUT_ACTIONS,
} from './definition.model';

/** The JSON Schema of the definition format (`GET /api/workflow/definitions/schema`); describes what authors write (defaults optional). */
export const DEFINITION_JSON_SCHEMA: Record<string, unknown> = z.toJSONSchema(definitionSchema, { io: 'input' }) as Record<string, unknown>;

export interface DesignerField {
  name: string;
  type: string;
  required: boolean;
  values?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  description?: string;
  /** Sub-fields of an object field (operations, timeout, branch). */
  fields?: DesignerField[];
}

type Shape = Record<string, z.ZodType>;

/** Composite field types the designer renders with a dedicated editor. */
const COMPOSITE: Record<string, { type: string; shape?: () => Shape }> = {
  assignees: { type: 'assignee[]' },
  recipients: { type: 'assignee[]' },
  condition: { type: 'jsonlogic' },
  operations: { type: 'object', shape: () => operationsSchema.shape },
  timeout: { type: 'object', shape: () => timeoutSchema.shape },
  escalateTo: { type: 'assignee' },
  branches: { type: 'branch[]' },
  nodes: { type: 'node[]' },
};

function describeFields(shape: Shape): DesignerField[] {
  return Object.entries(shape).map(([name, schema]) => {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    const composite = COMPOSITE[name];
    const values = Array.isArray(json['enum']) ? (json['enum'] as unknown[]) : json['const'] !== undefined ? [json['const']] : undefined;
    const field: DesignerField = {
      name,
      type: composite?.type ?? jsonType(json),
      required: !schema.safeParse(undefined).success,
      ...(values ? { values } : {}),
      ...(json['default'] !== undefined ? { default: json['default'] } : {}),
      ...(typeof json['minimum'] === 'number' ? { minimum: json['minimum'] } : {}),
      ...(typeof json['maximum'] === 'number' ? { maximum: json['maximum'] } : {}),
      ...(typeof json['description'] === 'string' ? { description: json['description'] } : {}),
    };
    if (composite?.shape) field.fields = describeFields(composite.shape());
    return field;
  });
}

function jsonType(json: Record<string, unknown>): string {
  if (typeof json['type'] === 'string') return json['type'] === 'array' ? `${jsonType((json['items'] as Record<string, unknown>) ?? {})}[]` : json['type'];
  const variants = (json['anyOf'] ?? json['oneOf']) as Array<Record<string, unknown>> | undefined;
  return variants ? variants.map(jsonType).join('|') : 'any';
}

const nodeKinds = [approvalNodeSchema, exclusiveGatewaySchema, parallelGatewaySchema, ccNodeSchema, endNodeSchema].map((schema) => ({
  kind: (schema.shape.kind as z.ZodLiteral<string>).value,
  description: schema.meta()?.description,
  fields: describeFields(schema.shape).filter((f) => f.name !== 'kind'),
}));

const branchFields = describeFields((exclusiveGatewaySchema.shape.branches.element as unknown as z.ZodObject<Shape>).shape);

const resolvers = assigneeSchema.options.map((schema) => ({
  kind: (schema.shape.kind as z.ZodLiteral<string>).value,
  description: schema.meta()?.description,
  fields: describeFields(schema.shape).filter((f) => f.name !== 'kind'),
}));

const HANDLER_DESCRIPTIONS: Record<string, string> = {
  'auto-approve': 'The task is approved by the system: a vote on its seat, counted by the node’s mode.',
  'auto-reject': 'The task is rejected by the system: a vote on its seat, counted by the node’s mode (a deciding rejection rejects the instance).',
  remind: 'The assignee is reminded (again every `repeatEvery`, when set); the task stays open.',
  transfer: 'The task passes to the subject named in `transferTo` (the task ends Transferred).',
  escalate: 'The task passes to the first subject `escalateTo` resolves to who holds no seat at the node (the task ends Transferred).',
  'auto-pass': 'The node passes without a task.',
  'to-admin': 'The definition’s admins get the task; the first to act decides.',
  error: 'The instance stops with Workflow.Runtime.AssigneeEmpty.',
};

/** Node config fields and the resolver and handler catalogs (`GET /api/workflow/definitions/designer-schema`). */
export const DESIGNER_SCHEMA: Record<string, unknown> = {
  formatVersion: 1,
  startKey: START_KEY,
  definitionFields: describeFields(definitionSchema.shape).filter((f) => f.name !== 'nodes'),
  nodeKinds,
  branchFields,
  resolvers,
  handlers: {
    timeout: TIMEOUT_ACTIONS.map((name) => ({ name, description: HANDLER_DESCRIPTIONS[name] })),
    emptyAssignee: EMPTY_ASSIGNEE_POLICIES.map((name) => ({ name, description: HANDLER_DESCRIPTIONS[name] })),
    notification: [{ name: 'cc', description: 'Notifies the recipients when the flow passes; never blocks.' }],
  },
  conditions: { language: 'jsonlogic', operators: [...CONDITION_OPERATORS] },
};
