import type { AdapterStatus } from '@lp/contracts';

/**
 * The spec's table (specs/operations.md §2, Adapter report), first match wins, then this platform's
 * extension: its broker and database adapters are named after their technology (`RabbitMq…`,
 * `Postgres…`), which the literal table would call Unknown although they are the production
 * profile; `InProcess…` is the embedded broker, the default profile. The extension is only
 * additive: no name the spec classifies changes class.
 */
const PREFIXES: ReadonlyArray<{ prefixes: readonly string[]; status: AdapterStatus; extension?: true }> = [
  { prefixes: ['Unavailable'], status: 'Unavailable' },
  { prefixes: ['InMemory', 'Memory', 'Null'], status: 'Default' },
  { prefixes: ['Cap', 'Redis', 'Cidr', 'SignalR'], status: 'Production' },
  { prefixes: ['Local'], status: 'Production (Local)' },
  { prefixes: ['RabbitMq', 'Postgres'], status: 'Production', extension: true },
  { prefixes: ['InProcess'], status: 'Default', extension: true },
];

/** An object resolved for a port that stands in for a missing one says so itself. */
export interface UnavailableProxy {
  readonly unavailableProxy: true;
}

export function isUnavailableProxy(instance: unknown): instance is UnavailableProxy {
  return typeof instance === 'object' && instance !== null && (instance as Partial<UnavailableProxy>).unavailableProxy === true;
}

/**
 * A name matches a prefix only at a word boundary (`Redis` matches `RedisKeyValueCache`, `Cap` does
 * not match `Capture…`'s lower-case continuation: the next character must start a new word).
 */
function startsWithWord(name: string, prefix: string): boolean {
  if (!name.startsWith(prefix)) return false;
  const next = name.charAt(prefix.length);
  return next === '' || (next >= 'A' && next <= 'Z') || (next >= '0' && next <= '9') || next === '_';
}

export function classifyAdapter(implementation: string, instance?: unknown): AdapterStatus {
  if (isUnavailableProxy(instance)) return 'Unavailable';
  for (const row of PREFIXES) {
    if (row.prefixes.some((prefix) => startsWithWord(implementation, prefix))) return row.status;
  }
  return 'Unknown';
}
