import { z } from 'zod';

/**
 * Case types of a litigation case (spec §2 leaves the allowed values open; documented in
 * docs/services/case-management.md). Lower-case kebab values, as every enum of the platform's API.
 */
export const CASE_TYPES = ['civil', 'commercial', 'labor', 'intellectual-property', 'administrative', 'arbitration'] as const;
export type CaseType = (typeof CASE_TYPES)[number];

/** A case's lifecycle status; a new case is `open`. */
export const CASE_STATUSES = ['open', 'in-progress', 'closed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

/** Largest claim amount a case stores (numeric(15,2)): exact as a JSON number. */
export const MAX_CLAIM_AMOUNT = 9_999_999_999_999.99;
export const MAX_CASE_TITLE_LENGTH = 200;
export const MAX_DEFENDANT_NAME_LENGTH = 200;

/** Matter numbers as case-management generates them: `LIT-{year}-{six-digit sequence per tenant and year}`. */
export const MATTER_NUMBER_PATTERN = /^LIT-\d{4}-\d{6,}$/;

const noControlCharacters = /^[^\p{Cc}]*$/u;

/**
 * What creating a case takes, the same on `POST /api/cases`, RPC `cases.create` and the MCP tool
 * `create_litigation_case`. Tenant, owner and creator come from the trusted caller, never from here.
 */
export const createCaseSchema = z.strictObject({
  title: z.string().trim().min(1, 'title must not be empty').max(MAX_CASE_TITLE_LENGTH).regex(noControlCharacters, 'title must not contain control characters'),
  caseType: z.enum(CASE_TYPES, { error: `caseType must be one of ${CASE_TYPES.join(', ')}` }),
  claimAmount: z
    .number({ error: 'claimAmount must be a number' })
    .gt(0, 'claimAmount must be strictly positive')
    .max(MAX_CLAIM_AMOUNT, `claimAmount must be at most ${MAX_CLAIM_AMOUNT}`)
    .refine((n) => Math.round(n * 100) / 100 === n, 'claimAmount must have at most two decimals'),
  /** ISO 4217 code; the service's default currency when absent. */
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'currency must be a three-letter ISO 4217 code in upper case')
    .optional(),
  defendantName: z
    .string()
    .trim()
    .min(1, 'defendantName must not be empty')
    .max(MAX_DEFENDANT_NAME_LENGTH)
    .regex(noControlCharacters, 'defendantName must not contain control characters'),
  /** The office the case belongs to (DataScope `office`); none when absent. */
  officeId: z.string().trim().min(1).max(64).optional(),
});
export type CreateCaseRequest = z.input<typeof createCaseSchema>;
export type ValidCreateCase = z.output<typeof createCaseSchema>;

export const getCaseSchema = z.strictObject({ caseId: z.string().min(1).max(200) });
export type GetCaseRequest = z.infer<typeof getCaseSchema>;

/** A litigation case as every surface returns it. */
export interface LitigationCase {
  id: string;
  matterNumber: string;
  title: string;
  caseType: CaseType;
  claimAmount: number;
  currency: string;
  defendantName: string;
  status: CaseStatus;
  /** The subject who owns the case (its creator; the ReBAC `owner` relation). */
  owner: string;
  officeId: string | null;
  tenantId: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}
