import { RUNTIME, TASKS } from './runtime-tenant';

/**
 * What an operation acts on: a task (picked by node and assignee), an instance, nothing yet (it
 * creates one), or no single id (the body names what it acts on, e.g. a batch of tasks).
 */
export type OperationTarget = 'task' | 'instance' | 'creates-instance' | 'none';

export interface RuntimeOperation {
  on: OperationTarget;
  /** The route, given the task's or the instance's id (unused for `creates-instance` and `none`). */
  path: (id: string) => string;
  method?: 'get' | 'post';
  /** The status a successful call answers (default 200). */
  ok?: number;
}

const onTask = (action: string): RuntimeOperation => ({ on: 'task', path: (id) => `${RUNTIME}/tasks/${id}/${action}` });
const onInstance = (action: string): RuntimeOperation => ({ on: 'instance', path: (id) => `${RUNTIME}/instances/${id}/${action}` });

/**
 * Every operation a scenario step or a race may call, by the name fixtures use: ONE table, so a new
 * route is one line here (and is then usable from every fixture). `creates-instance` operations get
 * `definitionKey` and `businessKey` filled in by the runner unless the body names them.
 */
export const RUNTIME_OPERATIONS = {
  start: { on: 'creates-instance', path: () => `${RUNTIME}/instances`, ok: 201 },
  complete: onTask('complete'),
  reject: onTask('reject'),
  transfer: onTask('transfer'),
  delegate: onTask('delegate'),
  'add-participant': onTask('add-participant'),
  'mark-read': { on: 'task', path: (id) => `${TASKS}/${id}/mark-read` },
  'view-task': { on: 'task', method: 'get', path: (id) => `${TASKS}/${id}` },
  progress: { on: 'instance', method: 'get', path: (id) => `${RUNTIME}/instances/${id}/progress` },
  withdraw: onInstance('withdraw'),
  resubmit: onInstance('resubmit'),
  terminate: onInstance('terminate'),
  cancel: onInstance('cancel'),
  suspend: onInstance('suspend'),
  resume: onInstance('resume'),
  remind: onInstance('remind'),
  priority: onInstance('priority'),
  'start-at-node': { on: 'creates-instance', path: () => `${RUNTIME}/instances/start-at-node`, ok: 201 },
  /** body: { "taskIds": ["$task:node:assignee", …] } */
  'batch-complete': { on: 'none', path: () => `${RUNTIME}/tasks/batch-complete` },
  reset: onInstance('reset'),
  'transfer-applicant': onInstance('transfer-applicant'),
} as const satisfies Record<string, RuntimeOperation>;

export type OperationName = keyof typeof RUNTIME_OPERATIONS;
export const OPERATION_NAMES = Object.keys(RUNTIME_OPERATIONS) as [OperationName, ...OperationName[]];
