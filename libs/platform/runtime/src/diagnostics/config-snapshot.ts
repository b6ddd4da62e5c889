import type { ConfigSnapshot } from '@lp/contracts';
import { ConfigRegistry } from '@lp/platform/config';

/** Owners of the keys the runtime itself declares for every service (platform, license, connectors). */
export const RUNTIME_CONFIG_OWNERS: readonly string[] = ['platform', 'runtime-license', 'connectors'];

/**
 * The configuration report of one service (specs/operations.md §2, Configuration diagnostics): the
 * keys the runtime declares plus the service's own (owner = its name), read from the environment the
 * service was started with. The process-wide registry holds every service's keys when several run in
 * one process (standalone, tests), so it is narrowed to this service's owners; the registry's own
 * report then applies the spec's rules (first declaration wins, a secret shows only its length, the
 * JWT fallback when nothing is declared).
 */
export function buildConfigSnapshot(
  service: string,
  env: Readonly<Record<string, string | undefined>>,
  registry: ConfigRegistry = ConfigRegistry.global,
  owners: readonly string[] = RUNTIME_CONFIG_OWNERS,
): ConfigSnapshot {
  const mine = new Set([...owners, service]);
  const narrowed = new ConfigRegistry();
  narrowed.register({ keys: registry.list().filter((key) => mine.has(key.owner)) });
  return { keys: narrowed.report({ ...env }).map((entry) => ({ ...entry })) };
}
