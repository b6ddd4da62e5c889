/** What one run of a retention job did: the rows it deleted and how (for the job's result line). */
export interface RetentionRun {
  rows: number;
  batches: number;
  ms: number;
  /** Anything else worth saying (partitions dropped or created). */
  detail?: string;
}

/**
 * The one-line detail a retention job reports to the execution audit, e.g.
 * `25 rows in 3 batches, 12 ms; dropped partitions decision_audit_p202501`.
 */
export function describeRetentionRun(run: RetentionRun): string {
  return `${run.rows} rows in ${run.batches} batches, ${run.ms} ms${run.detail ? `; ${run.detail}` : ''}`;
}
