import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Page } from '../../api/client';
import { asProblem } from '../../api/problem';
import { useSession } from '../../api/session';
import { Busy, Field, formatTime, Pager, ProblemMessage } from '../../ui/kit';
import { EvaluationsTable, outcomeClass } from '../why/DecisionPanel';
import { Question, whyLink } from '../why/question';
import { ACTIONS } from '../why/question';
import { AuditedDecision, DECISIONS, OUTCOMES, REASON_CODES, reasonCodeMeaning } from './audit-api';
import { AuditFilterForm } from './FilterParts';
import { useUrlFilters } from './url-filters';

const FILTERS = ['callerKind', 'subject', 'clientId', 'outcome', 'reasonCode', 'action', 'module', 'resourceType', 'correlationId', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;
const EMPTY: Filters = Object.fromEntries(FILTERS.map((key) => [key, ''])) as Filters;

/**
 * Whose decisions the list shows. People by default: the platform's own services (the job
 * scheduler above all) make most of the decisions, and would bury a person's. `any` shows everyone.
 */
const CALLERS = [
  ['', 'People'],
  ['application', 'Services and applications'],
  ['delegated', 'Acting for others'],
  ['any', 'Everyone'],
] as const;

/** The route's query for the filters in the address (no `callerKind` there: people). */
function queryOf(filters: Filters): Record<string, string | undefined> {
  const callerKind = filters.callerKind === '' ? 'user' : filters.callerKind === 'any' ? undefined : filters.callerKind;
  return { ...filters, callerKind };
}

function resourceText(decision: AuditedDecision): string {
  const base = `${decision.module}/${decision.resourceType}`;
  return decision.resourceId ? `${base} #${decision.resourceId}` : base;
}

function who(decision: AuditedDecision): string {
  if (decision.callerKind === 'application') return `${decision.subject} (application${decision.clientId ? ` ${decision.clientId}` : ''})`;
  if (decision.callerKind === 'delegated') return `${decision.subject} (by ${decision.actor ?? 'a delegate'})`;
  return decision.subject;
}

/**
 * The audited caller as the simulator asks about it. The audit keeps no token scopes: an application
 * is given the request's permission code as its one scope exactly when AppScope allowed the recorded
 * decision (the replay's rule, libs/services/authz-decision/src/simulation/policy-simulator.ts), and
 * a delegated caller no grant id (any active delegation to the actor counts).
 */
function callerOf(decision: AuditedDecision): Partial<Question> {
  if (decision.callerKind === 'application') {
    const scoped = decision.evaluations.some((e) => e.evaluator === 'AppScope' && e.verdict === 'Allow');
    const code = `${decision.module}.${decision.resourceType}.${decision.action.toLowerCase()}`;
    return { callerKind: 'application', scopes: scoped ? code : '', clientId: decision.clientId ?? '' };
  }
  if (decision.callerKind === 'delegated') return { callerKind: 'delegated', actor: decision.actor ?? '' };
  return {};
}

/** The audited request's question for the Why? screen (its facts as they were recorded), with the record beside it. */
function explainLink(decision: AuditedDecision): string {
  const fact = (key: string) => {
    const value = decision.resourceFacts[key];
    return value === undefined || value === null ? '' : String(value);
  };
  return whyLink(
    {
      subject: decision.subject,
      ...callerOf(decision),
      action: decision.action,
      module: decision.module,
      resourceType: decision.resourceType,
      resourceId: decision.resourceId ?? '',
      status: fact('status'),
      amount: fact('amount'),
      sensitivity: fact('sensitivity'),
      owner: fact('owner'),
      officeId: fact('officeId'),
    },
    {},
    decision.decisionId,
  );
}

/**
 * The tenant's authorization decisions, newest first, people's by default with a switch for
 * services, filtered by what the route takes and paged. Each row keeps the evaluators' verdicts as
 * recorded, and links to Why? with the same question asked on today's policy beside the record.
 */
export function DecisionAudit() {
  const { api } = useSession();
  const { filters, pageIndex, pageSize, setFilters, setPage, setPageSize } = useUrlFilters(FILTERS);
  const decisions = useQuery({
    queryKey: ['audit', 'decisions', filters, pageIndex, pageSize],
    queryFn: ({ signal }) => api.get<Page<AuditedDecision>>(DECISIONS, { ...queryOf(filters), pageIndex, pageSize }, signal),
    placeholderData: keepPreviousData,
  });
  const problem = decisions.error ? asProblem(decisions.error) : undefined;

  return (
    <>
      <fieldset className="audit-callers">
        <legend>Show the decisions of</legend>
        {CALLERS.map(([value, label]) => (
          <label key={value}>
            <input
              type="radio"
              name="audit-caller"
              value={value}
              checked={filters.callerKind === value}
              onChange={() => setFilters({ ...filters, callerKind: value })}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <DecisionFilters applied={filters} onApply={setFilters} problem={problem} pageSize={pageSize} onPageSize={setPageSize} />
      {decisions.isFetching ? <Busy label="Loading decisions…" /> : null}
      <ProblemMessage error={decisions.error} />
      {decisions.data ? (
        decisions.data.items.length === 0 ? (
          <p className="notice">No decision matches these filters.</p>
        ) : (
          <table className="audit-table">
            <caption>Decisions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Decided</th>
                <th scope="col">Subject</th>
                <th scope="col">Action</th>
                <th scope="col">Resource</th>
                <th scope="col">Outcome</th>
                <th scope="col">Explanation</th>
              </tr>
            </thead>
            <tbody>
              {decisions.data.items.map((decision) => (
                <tr key={decision.decisionId} data-testid="decision-row">
                  <td>{formatTime(decision.decidedAt)}</td>
                  <td>{who(decision)}</td>
                  <td>{decision.action}</td>
                  <td>{resourceText(decision)}</td>
                  <td>
                    <span className={outcomeClass(decision.outcome)}>{decision.outcome}</span>
                    {decision.cached ? <span className="audit-tag">cached</span> : null}
                    {decision.reasonCode ? <div className="field-help">{reasonCodeMeaning(decision.reasonCode)}</div> : null}
                    {decision.reason ? <div className="field-help">{decision.reason}</div> : null}
                    {decision.failure ? (
                      <div>
                        failed closed: <code>{decision.failure}</code>
                      </div>
                    ) : null}
                  </td>
                  <td>
                    <details>
                      <summary>Recorded verdicts</summary>
                      <EvaluationsTable evaluations={decision.evaluations} caption={`Evaluators at ${formatTime(decision.decidedAt)}`} />
                      <small>
                        Decision {decision.decisionId}
                        {decision.reasonCode ? ` · ${decision.reasonCode}` : ''}
                        {decision.correlationId ? ` · correlation ${decision.correlationId}` : ''} · {decision.latencyMs} ms
                      </small>
                    </details>
                    <Link to={explainLink(decision)} aria-label={`Explain now: ${decision.subject} ${decision.action} ${resourceText(decision)}`}>
                      Explain now
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      <Pager page={decisions.data} onPage={setPage} label="Decisions" />
    </>
  );
}

function DecisionFilters(props: {
  applied: Filters;
  onApply: (filters: Filters) => void;
  problem: ReturnType<typeof asProblem> | undefined;
  pageSize: number;
  onPageSize: (size: number) => void;
}) {
  const { problem } = props;
  return (
    <AuditFilterForm {...props} label="Filter decisions" empty={{ ...EMPTY, callerKind: props.applied.callerKind }}>
      {(draft, setDraft) => (
        <>
          <Field label="Subject" errors={problem?.field('subject') ?? []}>
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                value={draft.subject}
                onChange={(e) => setDraft({ ...draft, subject: e.target.value })}
                autoComplete="off"
              />
            )}
          </Field>
          <Field label="Outcome" errors={problem?.field('outcome') ?? []}>
            {(id, describedBy) => (
              <select id={id} aria-describedby={describedBy} value={draft.outcome} onChange={(e) => setDraft({ ...draft, outcome: e.target.value })}>
                <option value="">Any</option>
                {OUTCOMES.map((outcome) => (
                  <option key={outcome}>{outcome}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Reason" errors={problem?.field('reasonCode') ?? []}>
            {(id, describedBy) => (
              <select id={id} aria-describedby={describedBy} value={draft.reasonCode} onChange={(e) => setDraft({ ...draft, reasonCode: e.target.value })}>
                <option value="">Any</option>
                {REASON_CODES.map((code) => (
                  <option key={code} value={code}>
                    {reasonCodeMeaning(code)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Action" errors={problem?.field('action') ?? []}>
            {(id, describedBy) => (
              <select id={id} aria-describedby={describedBy} value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.target.value })}>
                <option value="">Any</option>
                {ACTIONS.map((action) => (
                  <option key={action}>{action}</option>
                ))}
              </select>
            )}
          </Field>
          {(
            [
              ['module', 'Module'],
              ['resourceType', 'Resource type'],
              ['clientId', 'Application (client id)'],
              ['correlationId', 'Correlation id'],
            ] as const
          ).map(([key, label]) => (
            <Field key={key} label={label} errors={problem?.field(key) ?? []}>
              {(id, describedBy) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  value={draft[key]}
                  onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
                  autoComplete="off"
                />
              )}
            </Field>
          ))}
        </>
      )}
    </AuditFilterForm>
  );
}
