import { z } from 'zod';
import { AuthorizationAction, JOB_NAME_PATTERN, OperationsRpc } from '@lp/contracts';
import { defineTool } from './mcp-tool';

const executionState = z.enum(['running', 'succeeded', 'failed', 'skipped', 'abandoned']);
const trigger = z.enum(['schedule', 'manual']);

const jobExecution = z.object({
  executionId: z.string(),
  jobName: z.string(),
  trigger,
  status: executionState,
  scheduledFor: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  ownerStartedAt: z.string().nullable(),
  errorCode: z.string().nullable(),
  detail: z.string().nullable(),
  correlationId: z.string().nullable(),
  actor: z.string(),
});

const jobEntry = z.object({
  jobName: z.string(),
  source: z.string(),
  description: z.string(),
  moduleName: z.string(),
  isCritical: z.boolean(),
  cronExpression: z.string().nullable(),
  enabled: z.boolean(),
  catalogDefault: z.object({ cronExpression: z.string().nullable() }),
  nextRunAt: z.string().nullable(),
  lastRun: z
    .object({
      executionId: z.string(),
      status: executionState,
      trigger,
      startedAt: z.string(),
      finishedAt: z.string().nullable(),
      errorCode: z.string().nullable(),
    })
    .nullable(),
});

/**
 * `list_jobs`: operations' job schedule (`GET /api/operations/jobs`), for holders of
 * `operations.jobs.view`. Platform-level: tools/list never offers it to callers of other tenants.
 */
export const listJobsTool = defineTool({
  name: 'list_jobs',
  title: 'List background jobs',
  description: "Lists the platform's background jobs with their schedule, next run and last run.",
  input: z.strictObject({}),
  // MCP structured content is an object: the list is wrapped.
  output: z.object({ jobs: z.array(jobEntry) }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  requires: [{ module: 'operations', resource: 'jobs', action: AuthorizationAction.View }],
  run: async (_input, { call }) => ({ jobs: await call(OperationsRpc.listJobs, {}) }),
});

/**
 * `run_job`: a manual run now (`POST /api/operations/jobs/{jobName}/run`), for holders of
 * `operations.jobs.manage` (platform-level, like `list_jobs`). Destructive and not idempotent, honestly: a run may purge data
 * (retention jobs) and every call is another run.
 */
export const runJobTool = defineTool({
  name: 'run_job',
  title: 'Run a background job now',
  description: 'Runs one background job now (by its name from list_jobs) and returns its result and audited execution.',
  input: z.strictObject({
    JobName: z
      .string()
      .max(128)
      .regex(JOB_NAME_PATTERN, 'JobName must be dotted lower-case: {service}.{job}')
      .describe('dotted job name, {service}.{job}, as list_jobs shows it'),
  }),
  output: z.object({
    status: z.enum(['succeeded', 'failed']),
    errorCode: z.string().optional(),
    detail: z.string().optional(),
    execution: jobExecution,
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  requires: [{ module: 'operations', resource: 'jobs', action: AuthorizationAction.Manage }],
  argumentFields: { JobName: 'jobName' },
  run: (input, { call }) => call(OperationsRpc.runJob, { jobName: input.JobName }),
});
