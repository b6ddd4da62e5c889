/**
 * Validation problems collected per field, the `errors` member of a `Validation.Failed` problem.
 *
 * Field names come from the client (an unknown property is reported under its own name), so they
 * are kept in a `Map`: `constructor`, `__proto__` or `toString` is a field like any other, never a
 * member of `Object.prototype` (a plain `{}` answered `problems[field].push is not a function`, a
 * 500, for a body `{"constructor":1}`). Every collector of per-field problems uses this one.
 */
export class FieldProblems {
  /** Made on the first problem: every decision request is checked with one, and most have none. */
  private byField?: Map<string, string[]>;

  add(field: string, ...messages: string[]): void {
    this.byField ??= new Map();
    const known = this.byField.get(field);
    if (known) known.push(...messages);
    else this.byField.set(field, [...messages]);
  }

  has(field: string): boolean {
    return this.byField?.has(field) ?? false;
  }

  get size(): number {
    return this.byField?.size ?? 0;
  }

  fields(): string[] {
    return [...(this.byField?.keys() ?? [])];
  }

  /**
   * The problems as the `errors` record. Built with `Object.fromEntries`, which defines each field as
   * an own property (an assignment of `__proto__` would set the prototype instead and lose the field).
   */
  toRecord(): Record<string, string[]> {
    return Object.fromEntries(this.byField ?? []);
  }
}
