const DELTA_SECONDS = /^\d+$/;
// An HTTP date names its weekday or month in letters; this keeps bare numbers and junk away from Date.parse.
const HTTP_DATE = /^[A-Za-z]{3,9},? .*\d{2}:\d{2}:\d{2}/;

/**
 * A `Retry-After` value in ms from `now`: delta-seconds (`120`) or an HTTP date
 * (`Wed, 21 Oct 2026 07:28:00 GMT`), never negative; undefined when absent or unreadable, so the
 * scheduler falls back to its own backoff.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (DELTA_SECONDS.test(text)) {
    const ms = Number(text) * 1000;
    return Number.isSafeInteger(ms) ? ms : undefined;
  }
  if (!HTTP_DATE.test(text)) return undefined;
  // HTTP dates are GMT; asctime format says so nowhere, and Date.parse would read it as local time.
  const at = Date.parse(/GMT$/.test(text) ? text : `${text} GMT`);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}
