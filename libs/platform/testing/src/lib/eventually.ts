/**
 * Polls `probe` until `accept` holds or `timeoutMs` has passed, and returns the last value either
 * way: the caller's assertion on it then fails with what was actually seen. For effects that are
 * eventually consistent by design (an outbox relay, a consumer on another service), where a fixed
 * sleep would be either flaky or slow.
 */
export async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 5_000, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await probe();
  while (!accept(last) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    last = await probe();
  }
  return last;
}
