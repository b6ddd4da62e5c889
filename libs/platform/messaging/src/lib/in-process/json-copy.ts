/**
 * What a value looks like after crossing the wire: the in-process transport copies through JSON so
 * code that works in the standalone profile cannot rely on shared references, class instances or
 * Dates that RabbitMQ would turn into strings.
 */
export function jsonCopy<T>(value: T): T {
  const text = JSON.stringify(value);
  return (text === undefined ? undefined : JSON.parse(text)) as T;
}
