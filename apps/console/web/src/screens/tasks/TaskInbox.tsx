import { KeyboardEvent, useId, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { Busy, formatTime, Pager, ProblemMessage, ScreenTitle } from '../../ui/kit';
import { workflowQueries, WorkflowTask } from './workflow-api';

export const INBOX_PAGE_SIZE = 20;
type Box = 'todo' | 'done';
const BOXES: Array<{ box: Box; label: string }> = [
  { box: 'todo', label: 'To do' },
  { box: 'done', label: 'Done' },
];

/** The user's own inboxes: Pending tasks (`/tasks/todo`) and the ones they decided (`/tasks/done`), paged. */
export function TaskInbox() {
  const { api } = useSession();
  const [params, setParams] = useSearchParams();
  const box: Box = params.get('box') === 'done' ? 'done' : 'todo';
  const pageIndex = Math.max(0, Number.parseInt(params.get('page') ?? '0', 10) || 0);
  const tasks = useQuery(workflowQueries.inbox(api, box, pageIndex, INBOX_PAGE_SIZE));
  const tabIds = useId();
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);

  const choose = (next: Box) => setParams(next === 'todo' ? {} : { box: next });
  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft' && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    const last = BOXES.length - 1;
    const next =
      event.key === 'Home' ? 0 : event.key === 'End' ? last : event.key === 'ArrowRight' ? (index === last ? 0 : index + 1) : index === 0 ? last : index - 1;
    const target = BOXES[next];
    if (!target) return;
    choose(target.box);
    tabRefs.current[next]?.focus();
  };

  return (
    <section className="tasks-screen">
      <ScreenTitle>Tasks</ScreenTitle>
      <div className="tabs" role="tablist" aria-label="Task inboxes">
        {BOXES.map((entry, index) => (
          <button
            key={entry.box}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${tabIds}-tab-${entry.box}`}
            aria-selected={box === entry.box}
            aria-controls={`${tabIds}-panel`}
            tabIndex={box === entry.box ? 0 : -1}
            onClick={() => choose(entry.box)}
            onKeyDown={(event) => onTabKey(event, index)}
          >
            {entry.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${tabIds}-panel`} aria-labelledby={`${tabIds}-tab-${box}`}>
        {tasks.isPending ? <Busy label="Loading your tasks…" /> : null}
        <ProblemMessage error={tasks.error} />
        {tasks.data && tasks.data.items.length === 0 ? (
          <p className="notice">{box === 'todo' ? 'Nothing to do: no task waits for you.' : 'You have not decided any task yet.'}</p>
        ) : null}
        {tasks.data && tasks.data.items.length > 0 ? box === 'todo' ? <TodoTable tasks={tasks.data.items} /> : <DoneTable tasks={tasks.data.items} /> : null}
        <Pager
          page={tasks.data}
          label={box === 'todo' ? 'To do' : 'Done'}
          onPage={(next) => setParams(box === 'todo' ? { page: String(next) } : { box, page: String(next) })}
        />
      </div>
    </section>
  );
}

function TaskLink({ task }: { task: WorkflowTask }) {
  return (
    <Link to={`/tasks/${task.id}`} aria-label={`${task.nodeName ?? task.nodeKey} of ${task.businessKey ?? task.instanceId}`}>
      {task.nodeName ?? task.nodeKey}
    </Link>
  );
}

/** The definition's name and the version the instance runs on (the key when the version is gone). */
function DefinitionCell({ task }: { task: WorkflowTask }) {
  if (!task.definitionName) return <>{task.definitionKey ?? '—'}</>;
  return (
    <>
      {task.definitionName}
      {task.definitionVersion ? ` v${task.definitionVersion}` : ''}
    </>
  );
}

function TodoTable({ tasks }: { tasks: WorkflowTask[] }) {
  return (
    <table>
      <caption className="visually-hidden">Tasks waiting for you, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Task</th>
          <th scope="col">Business key</th>
          <th scope="col">Definition</th>
          <th scope="col">Instance</th>
          <th scope="col">Opened</th>
          <th scope="col">Read</th>
        </tr>
      </thead>
      <tbody>
        {tasks.map((task) => (
          <tr key={task.id} className={task.readAt ? undefined : 'task-unread'}>
            <td>
              <TaskLink task={task} />
              {task.owner ? <div className="muted">delegated by {task.owner}</div> : null}
              {task.visit > 1 ? <div className="muted">visit {task.visit}</div> : null}
            </td>
            <td>{task.businessKey ?? '—'}</td>
            <td>
              <DefinitionCell task={task} />
            </td>
            <td>{task.instanceStatus ?? '—'}</td>
            <td>{formatTime(task.createdAt)}</td>
            <td>{task.readAt ? formatTime(task.readAt) : <strong>Unread</strong>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function DoneTable({ tasks }: { tasks: WorkflowTask[] }) {
  return (
    <table>
      <caption className="visually-hidden">Tasks you decided, newest decision first</caption>
      <thead>
        <tr>
          <th scope="col">Task</th>
          <th scope="col">Business key</th>
          <th scope="col">Definition</th>
          <th scope="col">Your decision</th>
          <th scope="col">Decided</th>
          <th scope="col">Comment</th>
          <th scope="col">Instance</th>
        </tr>
      </thead>
      <tbody>
        {tasks.map((task) => (
          <tr key={task.id}>
            <td>
              <TaskLink task={task} />
            </td>
            <td>{task.businessKey ?? '—'}</td>
            <td>
              <DefinitionCell task={task} />
            </td>
            <td className={task.status === 'Rejected' ? 'verdict-deny' : task.status === 'Approved' ? 'verdict-permit' : undefined}>
              {task.status === 'Approved' ? '✓ ' : task.status === 'Rejected' ? '✗ ' : ''}
              {task.status}
              {task.owner ? ` (advice for ${task.owner})` : ''}
            </td>
            <td>{formatTime(task.decidedAt)}</td>
            <td>{task.comment ?? '—'}</td>
            <td>{task.instanceStatus ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
