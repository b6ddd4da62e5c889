import type { JobExecutionState, JobExecutionView, JobScheduleEntryView, ManualJobRunView } from '@lp/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '../../api/client';
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

const jobPath = (jobName: string, suffix = '') => `${BASE}/${encodeURIComponent(jobName)}${suffix}`;
const keys = {
  list: ['operations', 'jobs'] as const,
  executions: (jobName: string) => ['operations', 'jobs', jobName, 'executions'] as const,
};

/** Every job of the fleet, sorted by JobName (the route answers the whole list; the screen pages it). */
export function useJobs() {
  const { api } = useSession();
  return useQuery({ queryKey: keys.list, queryFn: ({ signal }) => api.get<JobEntry[]>(BASE, undefined, signal) });
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

/** After a write: the list entry (schedule, state, next and last run) and the history are read again. */
function useRefresh(jobName: string) {
  const queryClient = useQueryClient();
  return (entry?: JobEntry) => {
    if (entry) queryClient.setQueryData<JobEntry[]>(keys.list, (list) => list?.map((job) => (job.jobName === entry.jobName ? entry : job)));
    return Promise.all([
      queryClient.invalidateQueries({ queryKey: keys.list, exact: true }),
      queryClient.invalidateQueries({ queryKey: keys.executions(jobName) }),
    ]);
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
