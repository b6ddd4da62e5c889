/**
 * The definition format, declared once in zod: the structural validation, the served JSON Schema
 * (`DEFINITION_JSON_SCHEMA`) and the designer catalog (`DESIGNER_SCHEMA`) are all derived from these
 * declarations, so they cannot drift apart.
 *
 * Block-structured: a process is a sequence of nodes; a gateway holds branches, each a sequence,
 * and the flow continues with the node after the gateway in the enclosing sequence (the implicit
 * join). There are no free edges, so every split is closed and every gateway is well-formed.
 * The start is implicit (reserved key `start`): it is where the initiator submits and where a
 * "reject to start" returns the instance.
 */
import { z } from 'zod';

/** The implicit start node's key; no node may use it. */
export const START_KEY = 'start';

const nodeKey = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/)
  .meta({ description: 'Unique key of the node in the definition (letters, digits, `_`, `-`; starts with a letter).' });

const variableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/)
  .meta({ description: 'Name of a process variable; dots descend into objects (`client.country`).' });

/** Assignee resolvers: how an approval's or a cc's people are found when the node is reached. */
export const ASSIGNEE_KINDS = ['user', 'role', 'initiator', 'initiator-manager', 'variable'] as const;

export const assigneeSchema = z.discriminatedUnion('kind', [
  z
    .strictObject({
      kind: z.literal('user'),
      subjects: z.array(z.string().min(1)).min(1).meta({ description: 'User subjects, in order.' }),
    })
    .meta({ description: 'Named users.' }),
  z
    .strictObject({ kind: z.literal('role'), role: z.string().min(1).meta({ description: 'Role name; its members come from policy-management.' }) })
    .meta({ description: 'Every member of a tenant role, resolved when the node is reached.' }),
  z.strictObject({ kind: z.literal('initiator') }).meta({ description: 'The user who started the instance.' }),
  z
    .strictObject({
      kind: z.literal('initiator-manager'),
      variable: variableName.meta({ description: 'Variable holding the initiator’s manager subject (set by the submitting form or an integration).' }),
    })
    .meta({ description: 'The initiator’s manager, read from a variable.' }),
  z
    .strictObject({ kind: z.literal('variable'), variable: variableName.meta({ description: 'Variable holding a subject or a list of subjects.' }) })
    .meta({ description: 'Subjects named by a process variable.' }),
]);
export type AssigneeSpec = z.output<typeof assigneeSchema>;

export const APPROVAL_MODES = ['sequential', 'all', 'any', 'ratio'] as const;
export const EMPTY_ASSIGNEE_POLICIES = ['auto-pass', 'to-admin', 'error'] as const;
export const TIMEOUT_ACTIONS = ['auto-approve', 'auto-reject', 'remind', 'transfer', 'escalate'] as const;
export type TimeoutAction = (typeof TIMEOUT_ACTIONS)[number];
export const END_RESULTS = ['approved', 'rejected'] as const;

/** ISO 8601 duration (`P3D`, `PT4H`) or a number of seconds. */
const duration = z.union([z.iso.duration(), z.number().int().positive()]).meta({ description: 'ISO 8601 duration (`P2D`, `PT4H`) or seconds.' });

/**
 * A node's timeout, counted per task from when it opens (docs/timeouts.md). The fields an action
 * does not use are refused by the static validation (`Workflow.Definition.TimeoutFieldNotAllowed`),
 * the ones it needs are required there (`TimeoutTargetMissing`): one flat object keeps the JSON
 * Schema and the designer form simple.
 */
export const timeoutSchema = z.strictObject({
  after: duration.meta({ description: 'How long a task may stay open: ISO 8601 duration (`P2D`, `PT4H`) or seconds, from when the task opened.' }),
  action: z.enum(TIMEOUT_ACTIONS).meta({ description: 'What happens to a task still open when its timeout fires.' }),
  repeatEvery: duration.optional().meta({ description: '`remind` only: remind again at this interval while the task stays open (absent: one reminder).' }),
  transferTo: z.string().min(1).optional().meta({ description: '`transfer` only (required): the subject the task passes to.' }),
  escalateTo: assigneeSchema.optional().meta({
    description: '`escalate` only (required): who the task passes to, resolved when it fires (the first resolved subject without a seat at the node).',
  }),
});

export const operationsSchema = z.strictObject({
  transfer: z.boolean().optional().meta({ description: 'The assignee may hand the task to another user (the task ends Transferred).' }),
  delegate: z.boolean().optional().meta({ description: 'The assignee may delegate; the task returns to them once the delegate has acted.' }),
  addSigner: z.boolean().optional().meta({ description: 'The assignee may add a signer before, after or in parallel.' }),
  rejectTargets: z
    .union([z.array(nodeKey).min(1), z.literal('previous'), z.literal('start')])
    .optional()
    .meta({
      description:
        'Where a rejection may send the instance back: approval node keys behind this node, `previous` (the nearest approval behind), or `start` (back to the initiator). Absent: a rejection rejects the instance.',
    }),
});

/**
 * A condition is a JSONLogic rule (data, not code: interpreted, never compiled or eval'd) over the
 * process variables, e.g. `{ ">": [{ "var": "amount" }, 10000] }`. The allowed operators are checked
 * by the static validation (`condition.ts`), not here, so the JSON Schema stays readable.
 */
const condition = z
  .record(z.string(), z.unknown())
  .meta({ description: 'JSONLogic rule over the variables, e.g. `{">": [{"var": "amount"}, 10000]}`; see the definitions-format docs for the operators.' });

export interface ApprovalNode {
  kind: 'approval';
  key: string;
  name?: string;
  assignees: AssigneeSpec[];
  mode: (typeof APPROVAL_MODES)[number];
  passPercent?: number;
  emptyAssignee: (typeof EMPTY_ASSIGNEE_POLICIES)[number];
  operations?: z.output<typeof operationsSchema>;
  timeout?: z.output<typeof timeoutSchema>;
}
export interface CcNode {
  kind: 'cc';
  key: string;
  name?: string;
  recipients: AssigneeSpec[];
}
export interface EndNode {
  kind: 'end';
  key: string;
  name?: string;
  result: (typeof END_RESULTS)[number];
}
export interface Branch {
  key?: string;
  name?: string;
  condition?: Record<string, unknown>;
  default?: boolean;
  nodes: FlowNode[];
}
export interface ExclusiveGateway {
  kind: 'exclusive';
  key: string;
  name?: string;
  branches: Branch[];
}
export interface ParallelGateway {
  kind: 'parallel';
  key: string;
  name?: string;
  branches: Branch[];
}
export type GatewayNode = ExclusiveGateway | ParallelGateway;
export type FlowNode = ApprovalNode | CcNode | EndNode | GatewayNode;
export type NodeKind = FlowNode['kind'];

const name = z.string().min(1).max(200).optional().meta({ description: 'Display name.' });

export const approvalNodeSchema = z
  .strictObject({
    kind: z.literal('approval'),
    key: nodeKey,
    name,
    assignees: z.array(assigneeSchema).min(1).meta({ description: 'Who gets a task; resolved in order, duplicates dropped.' }),
    mode: z
      .enum(APPROVAL_MODES)
      .default('sequential')
      .meta({ description: 'sequential: one after another; all: everyone approves; any: the first vote decides; ratio: `passPercent` of approvals.' }),
    passPercent: z.number().int().min(1).max(100).optional().meta({ description: 'Percent of approvals needed (ratio mode only), 1–100.' }),
    emptyAssignee: z
      .enum(EMPTY_ASSIGNEE_POLICIES)
      .default('error')
      .meta({ description: 'When nobody resolves: pass the node, give it to the definition’s `admins`, or stop the instance with an error.' }),
    operations: operationsSchema.optional().meta({ description: 'What the assignees may do besides approve and reject.' }),
    timeout: timeoutSchema.optional().meta({ description: 'Action taken when the node’s tasks stay open too long.' }),
  })
  .meta({ description: 'A user task: one task per resolved assignee, decided by the mode.' });

export const ccNodeSchema = z
  .strictObject({
    kind: z.literal('cc'),
    key: nodeKey,
    name,
    recipients: z.array(assigneeSchema).min(1).meta({ description: 'Who is notified; the flow never waits for them.' }),
  })
  .meta({ description: 'Carbon copy: notifies and continues at once.' });

export const endNodeSchema = z
  .strictObject({
    kind: z.literal('end'),
    key: nodeKey,
    name,
    result: z.enum(END_RESULTS).meta({ description: 'The instance’s final state when it gets here.' }),
  })
  .meta({ description: 'Ends the whole instance (also from inside a parallel branch) with the given result.' });

const branchSchema: z.ZodType<Branch> = z.strictObject({
  key: nodeKey.optional().meta({ description: 'Optional branch key (shown in simulation results).' }),
  name,
  condition: condition.optional(),
  default: z.boolean().optional().meta({ description: 'The branch taken when no condition holds (exclusive gateways: exactly one).' }),
  get nodes(): z.ZodArray<z.ZodType<FlowNode>> {
    return z.array(flowNodeSchema).meta({ description: 'The branch’s sequence of nodes.' });
  },
});

export const exclusiveGatewaySchema = z
  .strictObject({
    kind: z.literal('exclusive'),
    key: nodeKey,
    name,
    branches: z.array(branchSchema).min(2).meta({ description: 'Tried in order; the first whose condition holds is taken, else the default.' }),
  })
  .meta({ description: 'Exclusive gateway: exactly one branch is taken; the flow joins after it.' });

export const parallelGatewaySchema = z
  .strictObject({
    kind: z.literal('parallel'),
    key: nodeKey,
    name,
    branches: z.array(branchSchema).min(2).meta({ description: 'All run at once; the flow continues after the gateway when every branch is done.' }),
  })
  .meta({ description: 'Parallel gateway: every branch runs; implicit join.' });

export const flowNodeSchema: z.ZodType<FlowNode> = z
  .discriminatedUnion('kind', [approvalNodeSchema, exclusiveGatewaySchema, parallelGatewaySchema, ccNodeSchema, endNodeSchema])
  .meta({ id: 'FlowNode' }) as unknown as z.ZodType<FlowNode>;

export const VARIABLE_TYPES = ['string', 'number', 'boolean', 'date', 'subject', 'subjects', 'object'] as const;

export const definitionSchema = z
  .strictObject({
    name: z.string().min(1).max(200).meta({ description: 'Definition name.' }),
    description: z.string().max(2000).optional(),
    admins: z
      .array(z.string().min(1))
      .optional()
      .meta({ description: 'Process administrators: receive the tasks of approval nodes whose assignees resolve to nobody under `to-admin`.' }),
    variables: z
      .array(z.strictObject({ name: variableName, type: z.enum(VARIABLE_TYPES), description: z.string().optional() }))
      .optional()
      .meta({ description: 'Declared variables; when present, conditions and variable assignees may only use these names.' }),
    nodes: z.array(flowNodeSchema).min(1).meta({ description: 'The main sequence, after the implicit start; running off its end approves the instance.' }),
  })
  .meta({ title: 'Workflow definition', description: 'Block-structured workflow definition (see libs/services/workflow-engine/docs/definitions-format.md).' });

/** A definition that passed the structural check. */
export type WorkflowDefinition = z.output<typeof definitionSchema>;
