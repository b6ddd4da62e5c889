import type { JobExecutionState, JobExecutionView, JobScheduleEntryView, ManualJobRunView } from '@lp/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '../../api/client';
import { ApiProblem } from '../../api/problem';
import { useSession } from '../../api/session';

/** The operations API's job routes (specs/operations.md §4, libs/services/operations/docs/jobs.md). */
const BASE = '/api/operations/jobs';

export const MANAGE = 'operations.jobs.manage';
export const VIEW = 'operations.jobs.view';

// The shapes the job routes answer are operations' own (type-only imports: nothing of the contracts
// lib reaches the bundle).

export type ExecutionStatus = JobExecutionState;
/** `GET /jobs`: one job, with its effective persisted schedule, the catalog default, next and last run. */
export type JobEntry = JobScheduleEntryView;
/** `GET /jobs/{jobName}/executions`: one run of the execution audit. */
export type JobExecution = JobExecutionView;
/** `POST /jobs/{jobName}/run`: the owner's result (a business failure is `failed` with its code) and the execution. */
export type ManualRun = ManualJobRunView;

/** `PUT /jobs/{jobName}`: all three runtime fields are replaced at once. */
export interface ScheduleChange {
  cronExpression: string | null;
  intervalSeconds: number | null;
  enabled: boolean;
}

/** The latest run's status a list may be filtered by; `none`: never ran. */
export type LastRunFilter = ExecutionStatus | 'none';

/** The filters of `GET /jobs` (every one given must hold), as the list's address keeps them. */
export interface JobFilter {
  pageIndex: number;
  search?: string;
  enabled?: boolean;
  lastRunStatus?: LastRunFilter;
}

export const JOB_PAGE_SIZE = 15;

const jobPath = (jobName: string, suffix = '') => `${BASE}/${encodeURIComponent(jobName)}${suffix}`;
const keys = {
  all: ['operations', 'jobs'] as const,
  list: (filter: JobFilter) => ['operations', 'jobs', 'list', filter] as const,
  job: (jobName: string) => ['operations', 'jobs', 'one', jobName] as const,
  executions: (jobName: string) => ['operations', 'jobs', 'one', jobName, 'executions'] as const,
};

/** A page of the fleet's jobs, sorted by JobName, filtered by the API (`GET /jobs`). */
export function useJobPage(filter: JobFilter) {
  const { api } = useSession();
  return useQuery({
    queryKey: keys.list(filter),
    queryFn: ({ signal }) => api.get<Page<JobEntry>>(BASE, { ...filter, pageSize: JOB_PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });
}

/** One job (`GET /jobs/{jobName}`); `null` when the fleet has no such job (the API's 404: unknown or retired). */
export function useJob(jobName: string) {
  const { api } = useSession();
  return useQuery({
    queryKey: keys.job(jobName),
    queryFn: async ({ signal }) => {
      try {
        return await api.get<JobEntry>(jobPath(jobName), undefined, signal);
      } catch (error) {
        if (error instanceof ApiProblem && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/**
 * One page of a job's execution audit, newest first. While a run is going (one on the page is
 * `running`, or this console's own run request is in flight) it is read again every second.
 */
export function useJobExecutions(jobName: string, pageIndex: number, pageSize: number, runInFlight: boolean) {
  const { api } = useSession();
  return useQuery({
    queryKey: [...keys.executions(jobName), pageIndex, pageSize],
    queryFn: ({ signal }) => api.get<Page<JobExecution>>(jobPath(jobName, '/executions'), { pageIndex, pageSize }, signal),
    refetchInterval: (query) => (runInFlight || query.state.data?.items.some((run) => run.status === 'running') ? 1000 : false),
  });
}

/** After a write: the job (schedule, state, next and last run), the lists and the history are read again. */
function useRefresh(jobName: string) {
  const queryClient = useQueryClient();
  return (entry?: JobEntry) => {
    if (entry) queryClient.setQueryData<JobEntry | null>(keys.job(jobName), entry);
    return queryClient.invalidateQueries({ queryKey: keys.all });
  };
}

export function useSaveSchedule(jobName: string) {
  const { api } = useSession();
  const refresh = useRefresh(jobName);
  return useMutation({
    mutationFn: (change: ScheduleChange) => api.put<JobEntry>(jobPath(jobName), change),
    onSuccess: (entry) => refresh(entry),
  });
}

export function useSetEnabled(jobName: string) {
  const { api } = useSession();
  const refresh = useRefresh(jobName);
  return useMutation({
    mutationFn: (enabled: boolean) => api.post<JobEntry>(jobPath(jobName, enabled ? '/start' : '/stop')),
    onSuccess: (entry) => refresh(entry),
  });
}

export function useRunNow(jobName: string) {
  const { api } = useSession();
  const refresh = useRefresh(jobName);
  return useMutation({
    mutationFn: () => api.post<ManualRun>(jobPath(jobName, '/run')),
    // A refused or failed run is audited too (as failed): the history is read again either way.
    onSettled: () => refresh(),
  });
}
