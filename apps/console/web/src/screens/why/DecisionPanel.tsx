import { ReactNode, useId } from 'react';
import { Busy, ProblemMessage } from '../../ui/kit';
import type { Evaluation, SimulatedDecision } from './simulation-api';

export function outcomeClass(outcome: string | undefined): string {
  return outcome === 'Permit' ? 'verdict-permit' : 'verdict-deny';
}

function verdictClass(verdict: string): string {
  if (verdict === 'Allow') return 'verdict-permit';
  if (verdict === 'Deny') return 'verdict-deny';
  return 'why-neutral';
}

/** What the outcome means, in one sentence (spec §1 merge rules). */
export function outcomeMeaning(outcome: string | undefined): string {
  switch (outcome) {
    case 'Permit':
      return 'At least one evaluator allows and none denies.';
    case 'Deny':
      return 'An evaluator denies (a Deny always wins), or the answer failed closed.';
    case 'NoMatchingPolicy':
      return 'Every evaluator is neutral: nothing grants it, so it is not permitted.';
    default:
      return '';
  }
}

export function dataScopeText(scope: SimulatedDecision['dataScope']): string {
  switch (scope.kind) {
    case 'tenant':
      return `the whole tenant ${scope.tenantId ?? ''}`.trim();
    case 'office':
      return `offices ${(scope.officeIds ?? []).join(', ') || '(none)'}`;
    case 'own':
      return `rows owned by ${scope.subject ?? 'the subject'}`;
    case 'instances':
      return `${scope.resourceType ?? 'resource'} instances ${(scope.resourceIds ?? []).join(', ') || '(none)'}`;
    case 'none':
      return 'no rows';
    default:
      return JSON.stringify(scope);
  }
}

/** Every evaluator's verdict and reason, in the order the engine ran them. */
export function EvaluationsTable({ evaluations, caption }: { evaluations: Evaluation[]; caption: string }) {
  const showObligations = evaluations.some((e) => (e.obligations ?? []).length > 0);
  return (
    <table className="why-evaluations">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Evaluator</th>
          <th scope="col">Verdict</th>
          <th scope="col">Reason</th>
          {showObligations ? <th scope="col">Obligations</th> : null}
        </tr>
      </thead>
      <tbody>
        {evaluations.map((evaluation) => (
          <tr key={evaluation.evaluator}>
            <th scope="row">{evaluation.evaluator}</th>
            <td className={verdictClass(evaluation.verdict)}>{evaluation.verdict}</td>
            <td>{evaluation.reason}</td>
            {showObligations ? <td>{(evaluation.obligations ?? []).join(', ') || '—'}</td> : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * One answer of the simulator: the outcome, what it means, every evaluator's verdict and reason,
 * the data scope a permit carries, and the infrastructure failure if it failed closed.
 */
export function DecisionPanel({
  title,
  answer,
  error,
  fetching,
  testId,
  children,
}: {
  title: string;
  children?: ReactNode;
  answer: SimulatedDecision | undefined;
  error: unknown;
  fetching: boolean;
  testId: string;
}) {
  const headingId = useId();
  return (
    <section className="why-answer" aria-labelledby={headingId} data-testid={testId} aria-busy={fetching}>
      <h2 id={headingId}>{title}</h2>
      {children}
      {fetching ? <Busy label="Evaluating…" /> : null}
      <ProblemMessage error={error} />
      {answer && !error ? (
        <>
          <p className="why-outcome">
            Outcome:{' '}
            <strong className={outcomeClass(answer.outcome)} data-testid={`${testId}-outcome`}>
              {answer.outcome}
            </strong>
          </p>
          <p className="why-meaning">{outcomeMeaning(answer.outcome)}</p>
          {answer.failure ? (
            <p className="problem">
              Failed closed: <code>{answer.failure}</code>
            </p>
          ) : null}
          <EvaluationsTable evaluations={answer.evaluations} caption="Evaluators" />
          <dl className="why-facts-list">
            <dt>Data scope</dt>
            <dd>{dataScopeText(answer.dataScope)}</dd>
            {answer.obligations.length > 0 ? (
              <>
                <dt>Obligations</dt>
                <dd>{answer.obligations.join(', ')}</dd>
              </>
            ) : null}
          </dl>
        </>
      ) : null}
    </section>
  );
}
