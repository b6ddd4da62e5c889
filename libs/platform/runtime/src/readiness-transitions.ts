/**
 * Readiness is polled every few seconds by each kubelet: logging every failed probe (as an error
 * with a stack, as it used to be) buries the one line that matters. This tells only the changes:
 * the first "not ready" naming what is down, a dependency the service runs without ("degraded"),
 * a change in either, and "ready again".
 */
export class ReadinessTransitions {
  private last: string | undefined = '';

  /** The line to log for this probe's result, or undefined when nothing changed since the last probe. */
  observe(down: string[], degraded: string[] = []): string | undefined {
    const list = (names: string[]) => [...names].sort().join(', ');
    const now =
      down.length > 0
        ? `not ready: ${list(down)} unavailable`
        : degraded.length > 0
          ? `ready, degraded: ${list(degraded)} unavailable (served without it)`
          : undefined;
    if (now === this.last) return undefined;
    const first = this.last === '';
    this.last = now;
    if (now === undefined) return first ? undefined : 'ready again: every dependency answers';
    return now;
  }
}
