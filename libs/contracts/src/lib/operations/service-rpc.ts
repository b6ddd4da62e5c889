import { z } from 'zod';
import { rpcContract } from '../messaging/rpc-contract';
import { DiagnosticsRpc } from './diagnostics';
import { JobDeclaration, JobRunResult, jobRunRequestSchema } from './job-catalog';

/**
 * Patterns every service of the fleet answers on its own queue (`{service}.rpc`): the same pattern
 * name everywhere, the service named per call. Operations asks each one for its job catalog, runs
 * its jobs, and gathers its diagnostics snapshot through these.
 */
export const ServiceRpc = {
  /** The service's code catalog of jobs (specs/operations.md §1, fact 1). */
  jobCatalog: (service: string) => rpcContract<JobDeclaration[]>()({ pattern: 'service.jobs.catalog', service, payload: z.strictObject({}) }),
  /** Runs one of the service's jobs now and answers how it ended (a business failure is a result). */
  runJob: (service: string) => rpcContract<JobRunResult>()({ pattern: 'service.jobs.run', service, payload: jobRunRequestSchema }),
  /** The service's diagnostics snapshots: governance, adapters, connectors, config (one pattern each). */
  diagnostics: DiagnosticsRpc,
} as const;
