/**
 * Readiness is polled every few seconds by each kubelet: logging every failed probe (as an error
 * with a stack, as it used to be) buries the one line that matters. This tells only the changes:
 * the first "not ready" naming what is down, a change in what is down, and "ready again".
 */
export class ReadinessTransitions {
  private last: string | undefined = '';

  /** The line to log for this probe's result, or undefined when nothing changed since the last probe. */
  observe(down: string[]): string | undefined {
    const now = down.length === 0 ? undefined : [...down].sort().join(', ');
    if (now === this.last) return undefined;
    const first = this.last === '';
    this.last = now;
    if (now === undefined) return first ? undefined : 'ready again: every dependency answers';
    return `not ready: ${now} unavailable`;
  }
}
