import { z } from 'zod';
import { AUTHORIZATION_ACTIONS, AuthorizationAction, AuthzRpc, DATA_SCOPE_KINDS } from '@lp/contracts';
import { defineTool } from './mcp-tool';

const permissionSource = z.object({
  kind: z.enum(['role', 'temporaryGrant', 'delegation']),
  role: z.string().optional(),
  grantId: z.string().optional(),
  from: z.string().optional(),
  expiresAt: z.string().optional(),
});

/** `get_my_permissions`: the `/api/authorization/me/permissions` projection for the caller; no permission needed. */
export const getMyPermissionsTool = defineTool({
  name: 'get_my_permissions',
  title: 'My permissions',
  description: 'Lists the permission codes you hold in your tenant, where each comes from (role, temporary grant, delegation), and the features switched off.',
  input: z.strictObject({}),
  output: z.object({
    tenantId: z.string(),
    subject: z.string(),
    codes: z.array(z.string()),
    permissions: z.array(z.object({ code: z.string(), sources: z.array(permissionSource) })),
    disabledFeatures: z.array(z.object({ feature: z.string(), modules: z.array(z.string()) })),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  requires: [],
  run: (_input, { call }) => call(AuthzRpc.myPermissions, {}),
});

const evaluation = z.object({
  evaluator: z.enum(['RBAC', 'AppScope', 'ABAC', 'ReBAC', 'Feature']),
  verdict: z.enum(['Allow', 'Deny', 'Neutral']),
  reason: z.string(),
  obligations: z.array(z.string()).optional(),
});

/**
 * `check_authorization`: a decision for the caller itself with every evaluator's reason, as
 * `POST /api/authorization/decisions` answers it; no permission needed (a caller may always ask
 * about itself). The facts are the caller's hypothesis, as on that route.
 */
export const checkAuthorizationTool = defineTool({
  name: 'check_authorization',
  title: 'Check and explain a decision',
  description:
    'Asks whether you may perform Action on a resource (Module, Resource, optional instance facts) and explains the answer: the outcome and every evaluator with its reason.',
  input: z.strictObject({
    Module: z.string().min(1).max(100).describe('module code, e.g. cases'),
    Resource: z.string().min(1).max(100).describe('resource type, e.g. case'),
    Action: z.enum(AUTHORIZATION_ACTIONS as [AuthorizationAction, ...AuthorizationAction[]]),
    ResourceId: z.string().min(1).max(200).optional(),
    Owner: z.string().min(1).max(255).optional().describe('owner subject of the instance'),
    Status: z.string().min(1).max(100).optional(),
    Amount: z.number().optional(),
    Sensitivity: z.string().min(1).max(100).optional(),
    OfficeId: z.string().min(1).max(64).optional(),
  }),
  output: z.object({
    outcome: z.enum(['Permit', 'Deny', 'NoMatchingPolicy']),
    permitted: z.boolean(),
    decisionId: z.string(),
    reasons: z.array(evaluation),
    obligations: z.array(z.string()),
    dataScope: z.object({ kind: z.enum(DATA_SCOPE_KINDS as [string, ...string[]]), tenantId: z.string() }).loose(),
    reason: z.string().optional(),
    failure: z.string().optional(),
    validUntil: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  requires: [],
  argumentFields: { Module: 'resource.module', Resource: 'resource.resourceType', Action: 'action' },
  run: async (input, { call }) => {
    const facts = {
      resourceId: input.ResourceId,
      owner: input.Owner,
      status: input.Status,
      amount: input.Amount,
      sensitivity: input.Sensitivity,
      officeId: input.OfficeId,
    };
    const resource = { module: input.Module, resourceType: input.Resource, ...Object.fromEntries(Object.entries(facts).filter(([, v]) => v !== undefined)) };
    const reply = await call(AuthzRpc.decide, { resource, action: input.Action, withReasons: true });
    return {
      outcome: reply.outcome,
      permitted: reply.permitted,
      decisionId: reply.decisionId,
      reasons: reply.evaluations ?? [],
      obligations: reply.obligations,
      dataScope: reply.dataScope,
      ...(reply.reason ? { reason: reply.reason } : {}),
      ...(reply.failure ? { failure: reply.failure } : {}),
      ...(reply.validUntil ? { validUntil: reply.validUntil } : {}),
    };
  },
});
