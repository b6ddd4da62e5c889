import { z } from 'zod';
import { eventContract, eventFamily } from '../messaging/event-contract';
import { CASE_TYPES } from './case-model';

const caseCreated = z.object({
  tenantId: z.string().min(1),
  caseId: z.string().min(1),
  matterNumber: z.string().min(1),
  title: z.string(),
  caseType: z.enum(CASE_TYPES),
  claimAmount: z.number(),
  currency: z.string(),
  /** The creator, who becomes the case's `owner` relation (policy-management consumes this). */
  owner: z.string().min(1),
  officeId: z.string().nullable(),
});
export type CaseCreatedPayload = z.infer<typeof caseCreated>;

/** The `case.*` events case-management publishes through its outbox. */
export const CaseEvents = {
  created: eventContract('case.created', caseCreated),
} as const;

export const CASE_EVENT_FAMILY = eventFamily('case.*', CaseEvents);
