import { z } from 'zod';
import { AuthorizationAction, CASE_STATUSES, CASE_TYPES, CasesRpc, createCaseSchema, getCaseSchema } from '@lp/contracts';
import { defineTool } from './mcp-tool';

const fields = createCaseSchema.shape;

/** A litigation case as the tools return it: the platform's `LitigationCase` (the same as `GET /api/cases/{id}`). */
export const litigationCaseOutput = z.object({
  id: z.string().describe('case id (use it with get_case_by_id)'),
  matterNumber: z.string().describe('generated matter identifier, LIT-{year}-{sequence}'),
  title: z.string(),
  caseType: z.enum(CASE_TYPES),
  claimAmount: z.number(),
  currency: z.string(),
  defendantName: z.string(),
  status: z.enum(CASE_STATUSES),
  owner: z.string(),
  officeId: z.string().nullable(),
  tenantId: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/**
 * `create_litigation_case`: the spec's PascalCase arguments (§2 "MCP tool arguments") over
 * case-management's `createCaseSchema`, whose field rules are reused as they are, so the JSON
 * Schema clients see and the service's own validation cannot drift apart.
 */
export const createLitigationCaseTool = defineTool({
  name: 'create_litigation_case',
  title: 'Create a litigation case',
  description:
    'Creates a litigation case in your tenant, owned by you, and returns it with its generated matter number. ClaimAmount must be strictly positive (at most two decimals).',
  input: z.strictObject({
    CaseTitle: fields.title.describe('title of the case'),
    CaseType: fields.caseType.describe(`one of ${CASE_TYPES.join(', ')}`),
    ClaimAmount: fields.claimAmount.describe('claimed amount, strictly positive, at most two decimals'),
    DefendantName: fields.defendantName.describe('name of the defendant'),
    Currency: fields.currency.describe("ISO 4217 code; the service's default currency when absent"),
  }),
  output: litigationCaseOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  requires: [{ module: 'cases', resource: 'case', action: AuthorizationAction.Create }],
  argumentFields: { CaseTitle: 'title', CaseType: 'caseType', ClaimAmount: 'claimAmount', DefendantName: 'defendantName', Currency: 'currency' },
  run: (input, { call }) =>
    call(CasesRpc.create, {
      title: input.CaseTitle,
      caseType: input.CaseType,
      claimAmount: input.ClaimAmount,
      defendantName: input.DefendantName,
      ...(input.Currency === undefined ? {} : { currency: input.Currency }),
    }),
});

/** `get_case_by_id`: one case of the caller's tenant; another tenant's id is `NotFound`, as on the route. */
export const getCaseByIdTool = defineTool({
  name: 'get_case_by_id',
  title: 'Read a litigation case',
  description: 'Returns one litigation case of your tenant by its id.',
  input: z.strictObject({ CaseId: getCaseSchema.shape.caseId.describe('the case id returned by create_litigation_case') }),
  output: litigationCaseOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  requires: [{ module: 'cases', resource: 'case', action: AuthorizationAction.View }],
  argumentFields: { CaseId: 'caseId' },
  run: (input, { call }) => call(CasesRpc.get, { caseId: input.CaseId }),
});
