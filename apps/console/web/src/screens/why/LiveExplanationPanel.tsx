import { ReactNode, useId } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { Busy, formatTime, ProblemMessage } from '../../ui/kit';
import { dataScopeText, EvaluationsTable, outcomeClass, outcomeMeaning } from './DecisionPanel';
import { dataScopeRuleMeaning, EvaluatorTrace, explainLive, factsLeftOut, LiveExplanation, mergeRuleMeaning } from './explain-api';
import type { Question } from './question';

/** One input's value, readable: text as it is, lists as lists, a record as `key: value` pairs. */
function InputValue({ value }: { value: unknown }): ReactNode {
  if (value === null || value === undefined) return <span className="why-neutral">—</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="why-neutral">none</span>;
    return (
      <ul className="why-input-list">
        {value.map((item, i) => (
          <li key={i}>
            <InputValue value={item} />
          </li>
        ))}
      </ul>
    );
  }
  if (typeof value === 'object') {
    return (
      <span className="why-input-record">
        {Object.entries(value as Record<string, unknown>).map(([key, item], i) => (
          <span key={key}>
            {i > 0 ? ' · ' : null}
            {key}: <code>{typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item)}</code>
          </span>
        ))}
      </span>
    );
  }
  return <code>{String(value)}</code>;
}

/** What one evaluator looked at: a definition list of its inputs, and the JSON as the API sent it. */
function EvaluatorInputs({ trace }: { trace: EvaluatorTrace }) {
  const entries = Object.entries(trace.inputs);
  return (
    <details className="why-evaluator-inputs" data-testid={`inputs-${trace.evaluator}`}>
      <summary>
        {trace.evaluator} inputs ({trace.verdict})
      </summary>
      {entries.length === 0 ? <p className="why-neutral">No inputs recorded.</p> : null}
      <dl className="why-facts-list">
        {entries.map(([key, value]) => (
          <div key={key} className="why-facts-row">
            <dt>{key}</dt>
            <dd>
              <InputValue value={value} />
            </dd>
          </div>
        ))}
        {trace.storeFailure ? (
          <div className="why-facts-row">
            <dt>Store unavailable</dt>
            <dd>
              <code>{trace.storeFailure}</code> (denied, fail-closed)
            </dd>
          </div>
        ) : null}
        {trace.failed ? (
          <div className="why-facts-row">
            <dt>Failed</dt>
            <dd>the evaluator failed (counted as Deny)</dd>
          </div>
        ) : null}
      </dl>
      <details className="why-json">
        <summary>{trace.evaluator} inputs as JSON</summary>
        <pre>{JSON.stringify(trace.inputs, null, 2)}</pre>
      </details>
    </details>
  );
}

function Explanation({ explanation }: { explanation: LiveExplanation }) {
  const { decision, merge, dataScope } = explanation;
  const meaning = mergeRuleMeaning(merge.rule);
  const scopeMeaning = dataScopeRuleMeaning(dataScope.rule);
  return (
    <>
      <p className="why-outcome">
        Outcome:{' '}
        <strong className={outcomeClass(decision.outcome)} data-testid="live-outcome">
          {decision.outcome}
        </strong>
      </p>
      <p className="why-meaning">{outcomeMeaning(decision.outcome)}</p>
      {decision.refusal ? (
        <p className="problem">
          Refused: <code>{decision.refusal}</code>
        </p>
      ) : null}
      <h3>Merge</h3>
      <dl className="why-facts-list" data-testid="live-merge">
        <dt>Permission</dt>
        <dd>
          <code>{explanation.permissionCode}</code>
        </dd>
        <dt>Merge rule</dt>
        <dd>
          <code>{merge.rule}</code>
          {meaning ? ` — ${meaning}` : null}
        </dd>
        <dt>Denial reasons</dt>
        <dd>
          {merge.denialReasons.length === 0 ? (
            <span className="why-neutral">none</span>
          ) : (
            <ul className="why-input-list">
              {merge.denialReasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          )}
        </dd>
        {merge.obligations.length > 0 ? (
          <>
            <dt>Obligations</dt>
            <dd>{merge.obligations.join(', ')}</dd>
          </>
        ) : null}
        <dt>Decided at</dt>
        <dd>{formatTime(explanation.evaluatedAt)}</dd>
        <dt>Decision id</dt>
        <dd>
          <code>{decision.decisionId}</code>
        </dd>
      </dl>
      <EvaluationsTable evaluations={explanation.evaluators} caption="Evaluators of the live decision" />
      <h3>What each evaluator looked at</h3>
      {explanation.evaluators.map((trace) => (
        <EvaluatorInputs key={trace.evaluator} trace={trace} />
      ))}
      <h3>Data scope</h3>
      <dl className="why-facts-list" data-testid="live-data-scope">
        <dt>Resolved to</dt>
        <dd>{dataScopeText(dataScope.dataScope)}</dd>
        <dt>Rule</dt>
        <dd>
          <code>{dataScope.rule}</code>
          {scopeMeaning ? ` — ${scopeMeaning}` : null}
        </dd>
        <dt>Candidates</dt>
        <dd>
          {dataScope.candidates.length === 0 ? (
            <span className="why-neutral">none</span>
          ) : (
            <ul className="why-input-list">
              {dataScope.candidates.map((candidate, i) => (
                <li key={i}>{dataScopeText(candidate)}</li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
    </>
  );
}

/**
 * The signed-in user's own live decision for the question, explained by the decision service
 * (`POST /decisions/explain`): decided afresh from the token, as a real request of theirs would be,
 * and recorded in the decision audit under their name. Offered only when the question is about them:
 * the route answers for the token's own caller only.
 */
export function LiveExplanationPanel({ question }: { question: Question }) {
  const { api } = useSession();
  const headingId = useId();
  const explain = useMutation({ mutationFn: () => explainLive(api, question) });
  const leftOut = factsLeftOut(question);
  return (
    <section className="why-answer why-live" aria-labelledby={headingId} data-testid="live" aria-busy={explain.isPending}>
      <h2 id={headingId}>My live decision</h2>
      <p className="why-meaning">
        You are asking about yourself, so the decision service can explain your live decision: decided now from your token, as a real request of yours would be,
        with what every evaluator looked at. Unlike the simulator&apos;s answer, it is recorded in the decision audit under your name.
      </p>
      {leftOut.length > 0 ? (
        <p className="notice" role="note">
          A live question carries no {leftOut.join(' or ')} (the service owning the resource loads them); they are left out of it.
        </p>
      ) : null}
      <button type="button" onClick={() => explain.mutate()} disabled={explain.isPending}>
        {explain.data ? 'Explain my live decision again' : 'Explain my live decision'}
      </button>
      {explain.isPending ? <Busy label="Explaining…" /> : null}
      <ProblemMessage error={explain.error} />
      {explain.data && !explain.error ? <Explanation explanation={explain.data} /> : null}
    </section>
  );
}
