import { setTimeout as sleep } from 'node:timers/promises';

/** Polls until `check` holds; fails with `what` after `timeoutMs`. */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(10);
  }
}
