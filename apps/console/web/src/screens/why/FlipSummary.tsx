import type { SimulatedDecision } from './simulation-api';

/** One sentence comparing the saved answer with the answer under the proposed changes. */
export function FlipSummary({ saved, withChanges }: { saved: SimulatedDecision | undefined; withChanges: SimulatedDecision | undefined }) {
  if (!saved || !withChanges) return null;
  const same = saved.outcome === withChanges.outcome;
  return (
    <p className={same ? 'notice why-flip' : 'notice why-flip why-flip-changed'} role="status" data-testid="flip-summary">
      {same ? (
        <>
          The proposed changes leave the outcome at <strong>{saved.outcome}</strong>.
        </>
      ) : (
        <>
          The proposed changes turn <strong>{saved.outcome}</strong> into <strong>{withChanges.outcome}</strong>. Nothing is saved until the change is made for
          real.
        </>
      )}
    </p>
  );
}
