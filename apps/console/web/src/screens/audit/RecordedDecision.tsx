import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { Busy, formatTime, ProblemMessage } from '../../ui/kit';
import { EvaluationsTable, outcomeClass } from '../why/DecisionPanel';
import { AuditedDecision, decisionPath, reasonCodeMeaning } from './audit-api';

/**
 * One audited decision as it was recorded (`GET /permission-audit/decisions/{id}`): the Why? screen
 * shows it beside today's answer when it was opened from the audit ("Explain now"), so a reader sees
 * what was decided then and what would be decided now.
 */
export function RecordedDecision({ decisionId }: { decisionId: string }) {
  const { api } = useSession();
  const record = useQuery({
    queryKey: ['audit', 'decision', decisionId],
    queryFn: ({ signal }) => api.get<AuditedDecision>(decisionPath(decisionId), undefined, signal),
  });
  const decision = record.data;
  const headingId = useId();
  return (
    <section className="why-answer" aria-labelledby={headingId} data-testid="recorded">
      <h2 id={headingId}>As recorded</h2>
      {record.isPending ? <Busy label="Reading the audited decision…" /> : null}
      <ProblemMessage error={record.error} title="The audited decision could not be read" />
      {decision ? (
        <>
          <p className="why-outcome">
            Outcome:{' '}
            <strong className={outcomeClass(decision.outcome)} data-testid="recorded-outcome">
              {decision.outcome}
            </strong>{' '}
            at {formatTime(decision.decidedAt)}
            {decision.reasonCode ? (
              <>
                {' '}
                · <code>{decision.reasonCode}</code> ({reasonCodeMeaning(decision.reasonCode)})
              </>
            ) : null}
            {decision.cached ? <span className="audit-tag">cached</span> : null}
          </p>
          {decision.reason ? <p>{decision.reason}</p> : null}
          {decision.failure ? (
            <p>
              Failed closed: <code>{decision.failure}</code>
            </p>
          ) : null}
          <EvaluationsTable evaluations={decision.evaluations} caption={`Evaluators at ${formatTime(decision.decidedAt)}`} />
          <small>Decision {decision.decisionId}</small>
        </>
      ) : null}
    </section>
  );
}
