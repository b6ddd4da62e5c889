const WORD = /^[a-z0-9_-]+$/i;

/** A routing key is a dot-separated list of words (an event type such as `authorization.feature.changed`). */
export function isRoutingKey(value: string): boolean {
  return value.length > 0 && value.length <= 255 && value.split('.').every((w) => WORD.test(w));
}

/** A binding pattern: words, `*` (exactly one word) and `#` (zero or more words). */
export function assertTopicPattern(pattern: string): void {
  const ok = pattern.length > 0 && pattern.length <= 255 && pattern.split('.').every((w) => w === '*' || w === '#' || WORD.test(w));
  if (!ok) throw new Error(`Invalid topic pattern "${pattern}"`);
}

/** AMQP topic matching, so the in-process exchange routes exactly as RabbitMQ does. */
export function topicMatches(pattern: string, routingKey: string): boolean {
  return matchWords(pattern.split('.'), 0, routingKey.split('.'), 0);
}

function matchWords(pattern: string[], p: number, key: string[], k: number): boolean {
  if (p === pattern.length) return k === key.length;
  const word = pattern[p];
  if (word === '#') {
    for (let skip = k; skip <= key.length; skip++) if (matchWords(pattern, p + 1, key, skip)) return true;
    return false;
  }
  if (k === key.length) return false;
  return (word === '*' || word === key[k]) && matchWords(pattern, p + 1, key, k + 1);
}
