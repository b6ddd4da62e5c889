import { Injectable } from '@nestjs/common';

/** What one run of a retention task did, for its log line. */
export interface RetentionRun {
  rows: number;
  batches: number;
  ms: number;
  /** Anything else worth saying (partitions dropped or created). */
  detail?: string;
}

/**
 * One kind of data a service keeps only for so long (decision audit, processed events, change
 * log). `purge` deletes what is past retention at `now`; `prepare`, when present, runs at start and
 * before every purge (e.g. creating partitions ahead). These are the service's background jobs in
 * waiting: when the operations service lands, each registered task becomes a job of its service
 * (spec operations §1 code catalog) and this registry is the one place to move them from.
 */
export interface RetentionTask {
  /** Stable, dotted: `authz-decision.decision-audit`. */
  readonly name: string;
  readonly description: string;
  prepare?(now: Date): Promise<string | undefined>;
  purge(now: Date): Promise<RetentionRun>;
}

/** The retention tasks of one service app; modules register theirs when they initialize. */
@Injectable()
export class RetentionRegistry {
  private readonly tasks = new Map<string, RetentionTask>();

  register(task: RetentionTask): void {
    if (this.tasks.has(task.name)) throw new Error(`Retention task ${task.name} is registered twice`);
    this.tasks.set(task.name, task);
  }

  list(): RetentionTask[] {
    return [...this.tasks.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
