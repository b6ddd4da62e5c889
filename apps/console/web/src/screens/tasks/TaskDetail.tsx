import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { Busy, formatTime, ProblemMessage, ScreenTitle } from '../../ui/kit';
import { FlowDefinition, flatDefinition, findNode, nodeLabel, parseDefinition } from './definition-model';
import { InstanceTimeline } from './InstanceTimeline';
import { endStatus, nodeStatuses, startStatus } from './node-states';
import { ProgressGraph } from './ProgressGraph';
import { TaskActions } from './TaskActions';
import { InstanceProgress, taskActions, WORKFLOW_KEY, workflowQueries, WorkflowInstance, WorkflowTask } from './workflow-api';

/**
 * One task: its facts, the actions on it while it is Pending, the instance's business data, its
 * progress drawn as a graph (the definition's structure with each node's state) and its history.
 */
export function TaskDetail() {
  const { taskId = '' } = useParams();
  const { api, permissions, claims, canAny } = useSession();
  // The history routes need workflow.instance.view, which an approver seldom holds: not asked without it.
  const mayReadHistory = canAny(['workflow.instance.view']);
  const me = permissions?.subject ?? claims.sub;
  const queryClient = useQueryClient();
  const task = useQuery(workflowQueries.task(api, taskId));
  const instanceId = task.data?.instanceId;
  // The task's own progress route: whoever may read the task sees its instance's progress and the
  // version's outline, without workflow.instance.view or workflow.definition.view.
  const progress = useQuery({ ...workflowQueries.taskProgress(api, taskId), enabled: task.data !== undefined });
  const summary = useQuery({ ...workflowQueries.summary(api, instanceId ?? ''), enabled: instanceId !== undefined && mayReadHistory });
  const definition = progress.data ? parseDefinition(progress.data.definition) : undefined;
  const [message, setMessage] = useState<string>();
  const messageRef = useRef<HTMLDivElement>(null);

  // The assignee opening a task reads it: `mark-read` once (the API keeps the first read time).
  const markRead = useMutation({
    mutationFn: () => taskActions.markRead(api, taskId),
    onSuccess: (read) => {
      queryClient.setQueryData(workflowQueries.task(api, taskId).queryKey, (old: WorkflowTask | undefined) => (old ? { ...old, readAt: read.readAt } : old));
      void queryClient.invalidateQueries({ queryKey: [WORKFLOW_KEY, 'tasks'] });
    },
  });
  const marked = useRef(false);
  useEffect(() => {
    const data = task.data;
    if (!data || marked.current || data.status !== 'Pending' || data.readAt || data.assignee !== me) return;
    marked.current = true;
    markRead.mutate();
  }, [task.data, me, markRead]);

  useEffect(() => {
    if (message) messageRef.current?.focus();
  }, [message]);

  const node = definition && task.data ? findNode(definition, task.data.nodeKey) : undefined;
  const title = node ? nodeLabel(node) : task.data?.nodeKey;

  return (
    <section className="tasks-screen task-detail">
      <p>
        <Link to="/tasks">← All tasks</Link>
      </p>
      <ScreenTitle>{title ? `Task: ${title}` : 'Task'}</ScreenTitle>
      {task.isPending ? <Busy label="Loading the task…" /> : null}
      <ProblemMessage error={task.error} title="The task could not be read" />
      {message ? (
        <div className="success" role="status" tabIndex={-1} ref={messageRef}>
          {message}
        </div>
      ) : null}
      {task.data ? (
        <div className="detail-columns">
          <div>
            <h2>Task</h2>
            <TaskFacts task={task.data} />
            <ProblemMessage error={markRead.error} title="The task could not be marked read" />
            <h2>Decide</h2>
            {task.data.status !== 'Pending' ? (
              <p className="notice">This task is {task.data.status}: there is nothing left to decide.</p>
            ) : task.data.assignee !== me ? (
              <p className="notice">
                This task is assigned to <strong>{task.data.assignee}</strong>: only they can act on it.
              </p>
            ) : (
              <>
                {task.data.instanceStatus === 'Suspended' ? <p className="notice">The instance is suspended: votes are refused until it is resumed.</p> : null}
                <TaskActions task={task.data} definition={definition} onDone={setMessage} />
              </>
            )}
          </div>
          <div>
            <h2>Instance</h2>
            {progress.isPending ? <Busy label="Loading the instance…" /> : null}
            <ProblemMessage error={progress.error} title="The instance could not be read" />
            {progress.data ? (
              <InstanceFacts instance={progress.data.instance} version={progress.data.definitionVersion} definitionName={definition?.name} />
            ) : null}
            <h3>Business data</h3>
            {progress.data ? <BusinessData instance={progress.data.instance} definition={definition} /> : null}
          </div>
        </div>
      ) : null}
      {task.data && progress.data ? (
        <>
          <h2>Progress</h2>
          {summary.error ? <ProblemMessage error={summary.error} title="The history summary could not be read: rejections are judged from the tasks" /> : null}
          {progress.data.returnedToInitiator ? (
            <p className="notice">A rejection sent the instance back to its initiator: nothing is open until they resubmit.</p>
          ) : null}
          <InstanceGraph progress={progress.data} definition={definition ?? flatDefinition(progress.data.nodes)} decisions={summary.data?.nodes} />
          <h2>History</h2>
          {mayReadHistory ? (
            <InstanceTimeline instanceId={progress.data.instance.id} />
          ) : (
            <p className="notice">
              The instance&apos;s history needs the permission to view workflow instances; the progress above shows each node&apos;s tasks.
            </p>
          )}
        </>
      ) : null}
    </section>
  );
}

function InstanceGraph({
  progress,
  definition,
  decisions,
}: {
  progress: InstanceProgress;
  definition: FlowDefinition;
  decisions: Parameters<typeof nodeStatuses>[2];
}) {
  const statuses = nodeStatuses(definition, progress, decisions);
  const { instance } = progress;
  return (
    <ProgressGraph
      definition={definition}
      statuses={statuses}
      start={startStatus(progress)}
      end={endStatus(instance)}
      caption={`Progress of ${instance.definitionKey} for ${instance.businessKey} (${instance.status})`}
    />
  );
}

function TaskFacts({ task }: { task: WorkflowTask }) {
  return (
    <dl className="facts">
      <dt>Status</dt>
      <dd data-testid="task-status">{task.status}</dd>
      <dt>Node</dt>
      <dd>
        <code>{task.nodeKey}</code>
        {task.visit > 1 ? ` (visit ${task.visit})` : ''}
      </dd>
      <dt>Assignee</dt>
      <dd>{task.assignee}</dd>
      {task.owner ? (
        <>
          <dt>Delegated by</dt>
          <dd>{task.owner}</dd>
        </>
      ) : null}
      <dt>Opened</dt>
      <dd>{formatTime(task.createdAt)}</dd>
      <dt>Read</dt>
      <dd>{formatTime(task.readAt)}</dd>
      {task.decidedAt ? (
        <>
          <dt>Decided</dt>
          <dd>
            {formatTime(task.decidedAt)} by {task.decidedBy ?? '—'}
          </dd>
        </>
      ) : null}
      {task.comment ? (
        <>
          <dt>Comment</dt>
          <dd>{task.comment}</dd>
        </>
      ) : null}
    </dl>
  );
}

function InstanceFacts({ instance, version, definitionName }: { instance: WorkflowInstance; version?: number; definitionName?: string }) {
  return (
    <dl className="facts">
      <dt>Business key</dt>
      <dd>{instance.businessKey}</dd>
      <dt>Definition</dt>
      <dd>
        {definitionName ? `${definitionName} · ` : ''}
        <code>{instance.definitionKey}</code>
        {version ? ` v${version}` : ''}
      </dd>
      <dt>Status</dt>
      <dd data-testid="instance-status">{instance.status}</dd>
      <dt>Initiator</dt>
      <dd>{instance.initiator}</dd>
      <dt>Priority</dt>
      <dd>{instance.priority}</dd>
      <dt>Started</dt>
      <dd>{formatTime(instance.createdAt)}</dd>
      <dt>Ended</dt>
      <dd>{formatTime(instance.endedAt)}</dd>
    </dl>
  );
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** The instance's variables: the form the initiator submitted, and what votes merged into it. */
function BusinessData({ instance, definition }: { instance: WorkflowInstance; definition: FlowDefinition | undefined }) {
  const entries = Object.entries(instance.variables);
  if (entries.length === 0) return <p className="muted">The instance carries no business data.</p>;
  const declared = new Map((definition?.variables ?? []).map((v) => [v.name, v]));
  return (
    <table className="business-data">
      <caption className="visually-hidden">Business data of the instance</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([name, value]) => {
          const variable = declared.get(name);
          const text = formatValue(value);
          return (
            <tr key={name}>
              <th scope="row">
                {name}
                {variable ? <div className="muted">{variable.description ?? variable.type}</div> : null}
              </th>
              <td>{text.includes('\n') ? <pre>{text}</pre> : text}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
