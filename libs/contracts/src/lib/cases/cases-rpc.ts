import { rpcContract } from '../messaging/rpc-contract';
import { createCaseSchema, getCaseSchema, LitigationCase } from './case-model';

const CASE_MANAGEMENT = 'case-management';

/**
 * case-management's RPC surface (`case-management.rpc`). Both handlers run the same validation,
 * `@Authorize` check (as the caller in the message, facts loaded server-side) and persistence as
 * the HTTP routes.
 */
export const CasesRpc = {
  /** Creates a case owned by the caller; publishes `case.created`. */
  create: rpcContract<LitigationCase>()({ pattern: 'cases.create', service: CASE_MANAGEMENT, payload: createCaseSchema }),
  /** One case of the caller's tenant; `NotFound` for an id that is not there or is another tenant's. */
  get: rpcContract<LitigationCase>()({ pattern: 'cases.get', service: CASE_MANAGEMENT, payload: getCaseSchema }),
} as const;
