import type { WorkflowInstanceView, WorkflowTaskView } from '@lp/contracts';
import type { ApiClient, Page } from '../../api/client';

/**
 * The workflow engine's shapes the Tasks screen reads (docs/runtime.md, docs/history.md; the OpenAPI
 * document `/openapi/workflow-engine.json` is the authority) and the routes it calls.
 */
export const WORKFLOW = '/api/workflow';

export type TaskStatus = 'Pending' | 'Approved' | 'Rejected' | 'Transferred' | 'Delegated' | 'Cancelled';
export type InstanceStatus = 'Running' | 'Suspended' | 'Approved' | 'Rejected' | 'Withdrawn' | 'Terminated' | 'Cancelled';

/** A task as the runtime answers it (the engine's own shape), with its statuses narrowed to what the engine writes. */
export type WorkflowTask = Omit<WorkflowTaskView, 'status' | 'instanceStatus'> & { status: TaskStatus; instanceStatus?: InstanceStatus };

/** An instance as the runtime answers it, its status narrowed likewise. */
export type WorkflowInstance = Omit<WorkflowInstanceView, 'status'> & { status: InstanceStatus };

export interface ProgressNode {
  key: string;
  kind: string;
  name: string | null;
  state: 'not-reached' | 'passed' | 'waiting';
  tasks: WorkflowTask[];
}

export interface InstanceProgress {
  instance: WorkflowInstance;
  returnedToInitiator: boolean;
  nodes: ProgressNode[];
}

/** `GET /tasks/{taskId}/progress`: the instance's progress with its version's outline (no assignee rules). */
export interface TaskProgress extends InstanceProgress {
  definition: unknown;
  definitionVersion: number;
}

/** One visit of an approval node in the history summary: the vote that decided it, if any. */
export interface NodeDecision {
  nodeKey: string;
  visit: number;
  outcome: 'Approved' | 'Rejected' | null;
  decidedBy: string | null;
  decidedAt: string | null;
}

export interface HistorySummary {
  instance: WorkflowInstance;
  startedAt: string;
  endedAt: string | null;
  currentNodes: string[];
  nodes: NodeDecision[];
}

export interface TimelineEvent {
  seq: number;
  type: string;
  occurredAt: string;
  actor: string | null;
  taskId: string | null;
  nodeKey: string | null;
  comment: string | null;
  payload: Record<string, unknown>;
}

export interface TaskDecision {
  task: WorkflowTask;
  nodeClosed: boolean;
  instance: WorkflowInstance;
  returnedTask?: WorkflowTask;
}

export const FINAL_STATUSES: readonly InstanceStatus[] = ['Approved', 'Rejected', 'Withdrawn', 'Terminated', 'Cancelled'];

/** Every query of the screen starts with this key, so one invalidation after an action refreshes them all. */
export const WORKFLOW_KEY = 'workflow';

export const workflowQueries = {
  inbox: (api: ApiClient, box: 'todo' | 'done', pageIndex: number, pageSize: number) => ({
    queryKey: [WORKFLOW_KEY, 'tasks', box, pageIndex, pageSize],
    queryFn: ({ signal }: { signal: AbortSignal }) => api.get<Page<WorkflowTask>>(`${WORKFLOW}/tasks/${box}`, { pageIndex, pageSize }, signal),
  }),
  task: (api: ApiClient, taskId: string) => ({
    queryKey: [WORKFLOW_KEY, 'task', taskId],
    queryFn: ({ signal }: { signal: AbortSignal }) => api.get<WorkflowTask>(`${WORKFLOW}/tasks/${encodeURIComponent(taskId)}`, undefined, signal),
  }),
  taskProgress: (api: ApiClient, taskId: string) => ({
    queryKey: [WORKFLOW_KEY, 'task-progress', taskId],
    queryFn: ({ signal }: { signal: AbortSignal }) => api.get<TaskProgress>(`${WORKFLOW}/tasks/${encodeURIComponent(taskId)}/progress`, undefined, signal),
  }),
  summary: (api: ApiClient, instanceId: string) => ({
    queryKey: [WORKFLOW_KEY, 'summary', instanceId],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      api.get<HistorySummary>(`${WORKFLOW}/history/instances/${encodeURIComponent(instanceId)}`, undefined, signal),
  }),
  timeline: (api: ApiClient, instanceId: string, pageIndex: number, pageSize: number) => ({
    queryKey: [WORKFLOW_KEY, 'timeline', instanceId, pageIndex, pageSize],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      api.get<Page<TimelineEvent>>(`${WORKFLOW}/history/instances/${encodeURIComponent(instanceId)}/timeline`, { pageIndex, pageSize }, signal),
  }),
};

/** The four task actions and their routes (docs/runtime.md, Routes and permissions). */
export const taskActions = {
  complete: (api: ApiClient, taskId: string, body: { comment?: string; variables?: Record<string, unknown> }) =>
    api.post<TaskDecision>(`${WORKFLOW}/runtime/tasks/${encodeURIComponent(taskId)}/complete`, body),
  reject: (api: ApiClient, taskId: string, body: { comment?: string; target?: string }) =>
    api.post<TaskDecision>(`${WORKFLOW}/runtime/tasks/${encodeURIComponent(taskId)}/reject`, body),
  transfer: (api: ApiClient, taskId: string, body: { to: string; comment?: string }) =>
    api.post<WorkflowTask>(`${WORKFLOW}/runtime/tasks/${encodeURIComponent(taskId)}/transfer`, body),
  delegate: (api: ApiClient, taskId: string, body: { to: string; comment?: string }) =>
    api.post<WorkflowTask>(`${WORKFLOW}/runtime/tasks/${encodeURIComponent(taskId)}/delegate`, body),
  markRead: (api: ApiClient, taskId: string) => api.post<WorkflowTask>(`${WORKFLOW}/tasks/${encodeURIComponent(taskId)}/mark-read`),
};
