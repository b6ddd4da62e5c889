import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { asProblem } from '../../api/problem';
import { useSession } from '../../api/session';
import { ScreenTitle } from '../../ui/kit';
import type { ScreenDefinition } from '../screen';
import { useCatalogHints } from './catalog-hints';
import { DecisionPanel } from './DecisionPanel';
import { FlipSummary } from './FlipSummary';
import { LiveExplanationPanel } from './LiveExplanationPanel';
import { listChanges } from './overlay-changes';
import { OverlayEditor } from './OverlayEditor';
import { RecordedDecision } from '../audit/RecordedDecision';
import { DECISION_PARAM, isAskable, overlayFromParams, overlayIsEmpty, PolicyOverlay, Question, questionFromParams, whyParams } from './question';
import { QuestionForm } from './QuestionForm';
import { ReplayPanel } from './ReplayPanel';
import { SIMULATION_KEY, useSimulation } from './simulation-api';
import './why.css';

/**
 * Why?: the permission simulator. A question (subject, action, resource) is answered by
 * `POST /permission-simulation/evaluate` with every evaluator's verdict and reason; proposed changes
 * (the overlay) are answered beside it before anything is saved. The question and the changes live
 * in the URL, so a link (the Audit screen's "Explain") opens a given question with its answer. When
 * the question is about the signed-in user, their live decision can be explained beside it
 * (`POST /decisions/explain`: every evaluator's inputs, the merge, the DataScope resolution).
 */
function WhyScreen() {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const asked = useMemo(() => questionFromParams(params), [params]);
  const { overlay, invalid } = useMemo(() => overlayFromParams(params), [params]);
  const hints = useCatalogHints();
  const { permissions } = useSession();
  // The live explanation answers for the token's own caller only: offered when the question is about them.
  const aboutMe = permissions !== undefined && asked.callerKind === '' && asked.subject.trim() === permissions.subject;
  const askable = isAskable(asked);
  const hasChanges = !overlayIsEmpty(overlay);
  const saved = useSimulation(asked, undefined, askable);
  const withChanges = useSimulation(asked, overlay, askable && hasChanges);

  const ask = (question: Question) => {
    const next = whyParams(question, overlay);
    // The same question again is asked again: policy may have changed since (that is the point).
    if (next.toString() === whyParams(asked, overlay).toString()) void queryClient.invalidateQueries({ queryKey: SIMULATION_KEY });
    else setParams(next);
  };
  // An audited decision (from the Audit screen) is shown as recorded while the question stays the same.
  const recorded = params.get(DECISION_PARAM) ?? '';
  const changeOverlay = (next: PolicyOverlay) => {
    const nextParams = whyParams(asked, next);
    if (recorded) nextParams.set(DECISION_PARAM, recorded);
    setParams(nextParams);
  };

  return (
    <section className="why">
      <ScreenTitle>Why?</ScreenTitle>
      <p className="why-meaning">
        Ask whether a subject of your tenant may do an action on a resource, and see every evaluator&apos;s verdict and reason. Answers are computed on the
        saved policy as the decision service would, and nothing is written, cached or audited.
      </p>
      <QuestionForm asked={asked} hints={hints} problem={saved.error ? asProblem(saved.error) : undefined} busy={saved.isFetching} onAsk={ask} />
      {invalid ? (
        <p className="notice" role="note">
          The link&apos;s proposed changes could not be read (the <code>overlay</code> parameter is not a JSON object); the question is answered without them.
        </p>
      ) : null}
      {askable ? (
        <>
          {hasChanges ? <FlipSummary saved={saved.data} withChanges={withChanges.data} /> : null}
          <div className={hasChanges || recorded ? 'why-answers why-answers-compare' : 'why-answers'}>
            {recorded ? <RecordedDecision decisionId={recorded} /> : null}
            <DecisionPanel
              title={recorded ? 'Saved policy, now' : 'Saved policy'}
              testId="saved"
              answer={saved.data}
              error={saved.error}
              fetching={saved.isFetching}
            />
            {hasChanges ? (
              <DecisionPanel
                title="With proposed changes"
                testId="with-changes"
                answer={withChanges.data}
                error={withChanges.error}
                fetching={withChanges.isFetching}
              >
                <ul className="why-applied" aria-label="Changes applied">
                  {listChanges(overlay).map((change) => (
                    <li key={change.key}>{change.text}</li>
                  ))}
                </ul>
              </DecisionPanel>
            ) : null}
          </div>
          {aboutMe ? <LiveExplanationPanel key={whyParams(asked).toString()} question={asked} /> : null}
          <OverlayEditor
            key={asked.subject}
            overlay={overlay}
            onChange={changeOverlay}
            defaultSubject={asked.subject}
            hints={hints}
            problem={withChanges.error ? asProblem(withChanges.error) : undefined}
          />
          {hasChanges ? <ReplayPanel key={JSON.stringify(overlay)} overlay={overlay} /> : null}
        </>
      ) : (
        <p className="notice" role="note">
          Name a subject, an action, a module and a resource type, then press Ask. Example: may <code>bob</code> <code>View</code> <code>authorization</code>/
          <code>role</code>?
        </p>
      )}
    </section>
  );
}

export const whyScreen: ScreenDefinition = { path: 'why', label: 'Why?', needs: ['authorization.permission-simulation.view'], component: WhyScreen };
