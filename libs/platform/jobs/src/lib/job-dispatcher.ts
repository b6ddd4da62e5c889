import { JobDeclaration, JobRunResult, NotFoundError } from '@lp/contracts';
import { JobOutcome, JobRun, JobRunContext } from './job-handler';

/** A binding as the dispatcher receives it: the JobName, the work, and who declared it (for errors). */
export interface JobBinding {
  jobName: string;
  run: JobRun;
  boundBy: string;
}

/** The dispatcher's closure does not hold (specs/operations.md §4): boot must fail, naming each offender. */
export class JobDispatchClosureError extends Error {
  constructor(
    readonly service: string,
    readonly problems: string[],
  ) {
    super(`Job dispatcher of ${service} refused its bindings:\n- ${problems.join('\n- ')}`);
    this.name = 'JobDispatchClosureError';
  }
}

export class JobNotBoundError extends NotFoundError {
  constructor(jobName: string, service: string) {
    super(`Job ${jobName} of ${service}`);
  }
}

/**
 * Runs a service's jobs by JobName. Built once at boot from the service's catalog and its bindings,
 * and refuses to exist unless the two match exactly: a JobName bound twice, a catalog entry with no
 * binding, or a binding with no catalog entry (each named in the error).
 */
export class JobDispatcher {
  private readonly bindings: ReadonlyMap<string, JobBinding>;

  constructor(
    readonly service: string,
    readonly catalog: readonly JobDeclaration[],
    bindings: readonly JobBinding[],
  ) {
    const problems: string[] = [];
    const declared = new Map<string, JobDeclaration>();
    for (const entry of catalog) {
      if (declared.has(entry.jobName)) problems.push(`${entry.jobName} is declared twice in the catalog`);
      else declared.set(entry.jobName, entry);
      if (entry.source !== service) problems.push(`${entry.jobName} is declared with source ${entry.source}, not ${service}`);
    }
    const byName = new Map<string, JobBinding[]>();
    for (const binding of bindings) byName.set(binding.jobName, [...(byName.get(binding.jobName) ?? []), binding]);
    for (const [jobName, bound] of byName) {
      if (bound.length > 1) problems.push(`${jobName} has ${bound.length} bindings: ${bound.map((b) => b.boundBy).join(', ')}`);
      if (!declared.has(jobName)) problems.push(`${jobName} is bound by ${bound.map((b) => b.boundBy).join(', ')} but absent from the catalog`);
    }
    for (const jobName of declared.keys()) {
      if (!byName.has(jobName)) problems.push(`${jobName} is in the catalog but has no binding`);
    }
    if (problems.length > 0) throw new JobDispatchClosureError(service, problems);
    this.bindings = new Map([...byName].map(([jobName, bound]) => [jobName, bound[0] as JobBinding]));
  }

  has(jobName: string): boolean {
    return this.bindings.has(jobName);
  }

  /** Runs the job's binding; its business failure comes back as the result, its exception is thrown. */
  async run(context: JobRunContext): Promise<JobRunResult> {
    const binding = this.bindings.get(context.jobName);
    if (!binding) throw new JobNotBoundError(context.jobName, this.service);
    const startedAt = new Date().toISOString();
    return { ...toResult(await binding.run(context)), startedAt };
  }
}

function toResult(outcome: JobOutcome): JobRunResult {
  if (outcome === undefined) return { status: 'succeeded' };
  if (typeof outcome === 'string') return { status: 'succeeded', detail: outcome };
  return outcome;
}
