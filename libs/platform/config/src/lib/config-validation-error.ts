export interface ConfigProblem {
  readonly key: string;
  readonly problem: string;
}

/**
 * Thrown by `load()` when the environment does not satisfy the declarations. It carries every
 * problem, not the first, so one failed boot tells the operator everything to fix.
 */
export class ConfigValidationError extends Error {
  constructor(
    readonly owner: string,
    readonly problems: readonly ConfigProblem[],
  ) {
    super(
      [
        `Configuration of ${owner} is invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}):`,
        ...problems.map((p) => `  - ${p.key}: ${p.problem}`),
      ].join('\n'),
    );
    this.name = new.target.name;
  }
}
