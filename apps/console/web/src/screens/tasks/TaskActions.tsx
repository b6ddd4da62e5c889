import { FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { asProblem } from '../../api/problem';
import { useSession } from '../../api/session';
import { Busy, Field, ProblemMessage } from '../../ui/kit';
import { FlowDefinition, findNode, nodeLabel, rejectTargets, START_KEY } from './definition-model';
import { taskActions, WORKFLOW_KEY, WorkflowTask } from './workflow-api';

type Action = 'approve' | 'reject' | 'transfer' | 'delegate';
type Errors = Partial<Record<'comment' | 'variables' | 'to' | 'target', string[]>>;

/** The API's bounds (docs/runtime.md, Limits), checked before sending so the message is next to its field. */
const COMMENT_MAX = 2000;
const SUBJECT_MAX = 255;

const ACTION_LABELS: Record<Action, string> = { approve: 'Approve…', reject: 'Reject…', transfer: 'Transfer…', delegate: 'Delegate…' };

/**
 * Approve, reject, transfer, delegate: one form at a time opens under its button (focus moves into
 * it, and back to the button on cancel). Buttons follow the user's permissions and the node's
 * `operations`; the API still decides, and its problem is shown next to the fields it names.
 */
export function TaskActions({ task, definition, onDone }: { task: WorkflowTask; definition: FlowDefinition | undefined; onDone: (message: string) => void }) {
  const { canAny } = useSession();
  const [open, setOpen] = useState<Action>();
  const panelId = useId();
  const buttons = useRef<Partial<Record<Action, HTMLButtonElement | null>>>({});
  const node = definition ? findNode(definition, task.nodeKey) : undefined;
  const canApprove = canAny(['workflow.task.approve']);
  const canReject = canAny(['workflow.task.reject']);
  // Without the definition the node's operations are unknown: offer them, the API answers.
  const allows = (operation: 'transfer' | 'delegate') => (definition ? node?.operations?.[operation] === true : true);
  const available: Action[] = [
    ...(canApprove ? (['approve'] as const) : []),
    ...(canReject ? (['reject'] as const) : []),
    ...(canApprove && allows('transfer') ? (['transfer'] as const) : []),
    ...(canApprove && allows('delegate') && task.owner === null ? (['delegate'] as const) : []),
  ];

  const close = (action: Action) => {
    setOpen(undefined);
    buttons.current[action]?.focus();
  };
  const done = (message: string) => {
    setOpen(undefined);
    onDone(message);
  };

  if (available.length === 0) {
    return <p className="notice">You may not decide this task: your roles grant neither workflow.task.approve nor workflow.task.reject.</p>;
  }
  return (
    <div className="task-actions">
      <div className="action-buttons" role="group" aria-label="Task actions">
        {available.map((action) => (
          <button
            key={action}
            ref={(element) => {
              buttons.current[action] = element;
            }}
            type="button"
            className={open === action ? undefined : 'secondary'}
            aria-expanded={open === action}
            aria-controls={open === action ? panelId : undefined}
            onClick={() => setOpen(open === action ? undefined : action)}
          >
            {ACTION_LABELS[action]}
          </button>
        ))}
      </div>
      {task.owner ? (
        <p className="muted">
          You act for <strong>{task.owner}</strong>: your decision is advice, and the task returns to them.
        </p>
      ) : null}
      {definition && !allows('transfer') && !allows('delegate') ? <p className="muted">This node allows neither transfer nor delegation.</p> : null}
      <div id={panelId}>
        {open === 'approve' ? <ApproveForm task={task} onCancel={() => close('approve')} onDone={done} /> : null}
        {open === 'reject' ? <RejectForm task={task} definition={definition} onCancel={() => close('reject')} onDone={done} /> : null}
        {open === 'transfer' ? <HandOverForm task={task} action="transfer" onCancel={() => close('transfer')} onDone={done} /> : null}
        {open === 'delegate' ? <HandOverForm task={task} action="delegate" onCancel={() => close('delegate')} onDone={done} /> : null}
      </div>
    </div>
  );
}

/** Moves focus to the form's first field when it opens. */
function useFocusOnOpen<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

function commentErrors(comment: string, required: boolean): string[] | undefined {
  if (required && comment.trim() === '') return ['Say why you reject the task.'];
  if (comment.length > COMMENT_MAX) return [`At most ${COMMENT_MAX} characters (now ${comment.length}).`];
  return undefined;
}

/** The form's own errors first, else the API's for the same field. */
function fieldErrors(errors: Errors, error: unknown, field: keyof Errors): string[] {
  return errors[field] ?? (error ? asProblem(error).field(field) : []);
}

/** One action's call; on success every workflow query is read again (the inboxes, the task, the graph). */
function useTaskMutation<V, T>(run: (body: V) => Promise<T>, message: (result: T, body: V) => string, onDone: (message: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: async (result, body) => {
      await queryClient.invalidateQueries({ queryKey: [WORKFLOW_KEY] });
      onDone(message(result, body));
    },
  });
}

function FormButtons({
  label,
  busyLabel,
  pending,
  danger,
  onCancel,
}: {
  label: string;
  busyLabel: string;
  pending: boolean;
  danger?: boolean;
  onCancel: () => void;
}) {
  return (
    <div className="form-row">
      <button type="submit" className={danger ? 'danger' : undefined} disabled={pending}>
        {label}
      </button>
      <button type="button" className="secondary" onClick={onCancel} disabled={pending}>
        Cancel
      </button>
      {pending ? <Busy label={busyLabel} /> : null}
    </div>
  );
}

function ApproveForm({ task, onCancel, onDone }: { task: WorkflowTask; onCancel: () => void; onDone: (message: string) => void }) {
  const { api } = useSession();
  const headingId = useId();
  const first = useFocusOnOpen<HTMLTextAreaElement>();
  const [comment, setComment] = useState('');
  const [variables, setVariables] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const mutation = useTaskMutation(
    (body: { comment?: string; variables?: Record<string, unknown> }) => taskActions.complete(api, task.id, body),
    (result) =>
      `Approved ${task.nodeKey}.${result.nodeClosed ? ' The node is decided' : ' The node waits for other votes'}; the instance is ${result.instance.status}.`,
    onDone,
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const next: Errors = { comment: commentErrors(comment, false) };
    let parsed: Record<string, unknown> | undefined;
    if (variables.trim() !== '') {
      try {
        const value: unknown = JSON.parse(variables);
        if (typeof value !== 'object' || value === null || Array.isArray(value))
          next.variables = ['Form data must be a JSON object, like {"approvedAmount": 500}.'];
        else parsed = value as Record<string, unknown>;
      } catch (error) {
        next.variables = [`Not valid JSON: ${error instanceof Error ? error.message : String(error)}`];
      }
    }
    setErrors(next);
    if (next.comment || next.variables) return;
    mutation.mutate({ ...(comment.trim() ? { comment: comment.trim() } : {}), ...(parsed ? { variables: parsed } : {}) });
  }

  return (
    <form className="action-form" aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h3 id={headingId}>Approve the task</h3>
      <Field label="Comment" errors={fieldErrors(errors, mutation.error, 'comment')} hint="Optional, kept with your vote.">
        {(id, describedBy) => (
          <textarea
            ref={first}
            id={id}
            aria-describedby={describedBy}
            aria-invalid={fieldErrors(errors, mutation.error, 'comment').length > 0}
            rows={3}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
          />
        )}
      </Field>
      <Field
        label="Form data (JSON)"
        errors={fieldErrors(errors, mutation.error, 'variables')}
        hint="Optional: variables merged into the instance’s data, e.g. for the conditions of later gateways."
      >
        {(id, describedBy) => (
          <textarea
            id={id}
            aria-describedby={describedBy}
            aria-invalid={fieldErrors(errors, mutation.error, 'variables').length > 0}
            rows={3}
            value={variables}
            spellCheck={false}
            onChange={(event) => setVariables(event.target.value)}
          />
        )}
      </Field>
      <ProblemMessage error={mutation.error} title="The task was not approved" />
      <FormButtons label="Approve task" busyLabel="Approving…" pending={mutation.isPending} onCancel={onCancel} />
    </form>
  );
}

function RejectForm({
  task,
  definition,
  onCancel,
  onDone,
}: {
  task: WorkflowTask;
  definition: FlowDefinition | undefined;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const { api } = useSession();
  const headingId = useId();
  const first = useFocusOnOpen<HTMLTextAreaElement>();
  const [comment, setComment] = useState('');
  const [target, setTarget] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const targets = definition ? rejectTargets(definition, task.nodeKey) : [];
  const mutation = useTaskMutation(
    (body: { comment: string; target?: string }) => taskActions.reject(api, task.id, body),
    (result, body) =>
      `Rejected ${task.nodeKey}${body.target ? `, back to ${body.target === START_KEY ? 'the initiator' : body.target}` : ''}; the instance is ${result.instance.status}.`,
    onDone,
  );
  const targetLabel = (key: string) => {
    if (key === START_KEY) return 'The initiator (start)';
    const node = definition ? findNode(definition, key) : undefined;
    return node && node.name ? `${nodeLabel(node)} (${key})` : key;
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const next: Errors = { comment: commentErrors(comment, true) };
    setErrors(next);
    if (next.comment) return;
    mutation.mutate({ comment: comment.trim(), ...(target ? { target } : {}) });
  }

  return (
    <form className="action-form" aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h3 id={headingId}>Reject the task</h3>
      <Field label="Reason" errors={fieldErrors(errors, mutation.error, 'comment')} hint="Required: the initiator and the history see it.">
        {(id, describedBy) => (
          <textarea
            ref={first}
            id={id}
            aria-describedby={describedBy}
            aria-invalid={fieldErrors(errors, mutation.error, 'comment').length > 0}
            aria-required="true"
            rows={3}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
          />
        )}
      </Field>
      {targets.length > 0 ? (
        <Field label="Send back to" errors={fieldErrors(errors, mutation.error, 'target')} hint="Without a target, the rejection rejects the instance.">
          {(id, describedBy) => (
            <select id={id} aria-describedby={describedBy} value={target} onChange={(event) => setTarget(event.target.value)}>
              <option value="">Nobody: reject the instance</option>
              {targets.map((key) => (
                <option key={key} value={key}>
                  {targetLabel(key)}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : (
        <p className="muted">This node has no reject targets: rejecting it rejects the instance.</p>
      )}
      <ProblemMessage error={mutation.error} title="The task was not rejected" />
      <FormButtons label="Reject task" busyLabel="Rejecting…" pending={mutation.isPending} danger onCancel={onCancel} />
    </form>
  );
}

function HandOverForm({
  task,
  action,
  onCancel,
  onDone,
}: {
  task: WorkflowTask;
  action: 'transfer' | 'delegate';
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const { api } = useSession();
  const headingId = useId();
  const first = useFocusOnOpen<HTMLInputElement>();
  const [to, setTo] = useState('');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const transfer = action === 'transfer';
  const mutation = useTaskMutation(
    (body: { to: string; comment?: string }) => taskActions[action](api, task.id, body),
    (created) =>
      transfer
        ? `Transferred ${task.nodeKey} to ${created.assignee}: the task is theirs now.`
        : `Delegated ${task.nodeKey} to ${created.assignee}: once they act, the task comes back to you.`,
    onDone,
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const subject = to.trim();
    const next: Errors = {
      to:
        subject === ''
          ? [transfer ? 'Enter the user (subject) who gets the task.' : 'Enter the user (subject) who acts for you.']
          : subject.length > SUBJECT_MAX
            ? [`At most ${SUBJECT_MAX} characters.`]
            : undefined,
      comment: commentErrors(comment, false),
    };
    setErrors(next);
    if (next.to || next.comment) return;
    mutation.mutate({ to: subject, ...(comment.trim() ? { comment: comment.trim() } : {}) });
  }

  return (
    <form className="action-form" aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h3 id={headingId}>{transfer ? 'Transfer the task' : 'Delegate the task'}</h3>
      <Field
        label={transfer ? 'Transfer to' : 'Delegate to'}
        errors={fieldErrors(errors, mutation.error, 'to')}
        hint={transfer ? 'The user’s subject; the task becomes theirs.' : 'The user’s subject; they advise, then the task returns to you.'}
      >
        {(id, describedBy) => (
          <input
            ref={first}
            id={id}
            aria-describedby={describedBy}
            aria-invalid={fieldErrors(errors, mutation.error, 'to').length > 0}
            aria-required="true"
            autoComplete="off"
            value={to}
            onChange={(event) => setTo(event.target.value)}
          />
        )}
      </Field>
      <Field label="Comment" errors={fieldErrors(errors, mutation.error, 'comment')} hint="Optional.">
        {(id, describedBy) => <textarea id={id} aria-describedby={describedBy} rows={2} value={comment} onChange={(event) => setComment(event.target.value)} />}
      </Field>
      <ProblemMessage error={mutation.error} title={transfer ? 'The task was not transferred' : 'The task was not delegated'} />
      <FormButtons
        label={transfer ? 'Transfer task' : 'Delegate task'}
        busyLabel={transfer ? 'Transferring…' : 'Delegating…'}
        pending={mutation.isPending}
        onCancel={onCancel}
      />
    </form>
  );
}
