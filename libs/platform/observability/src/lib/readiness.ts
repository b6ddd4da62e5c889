/** One dependency the service needs to serve traffic (database, broker, cache). */
export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency answers; rejects (or times out) when it does not. */
  check(): Promise<void>;
  /**
   * `false` for a dependency the service can serve without (a cache: callers fall back to the
   * source of truth): its failure reports it `degraded` while the instance stays ready. Default true.
   */
  critical?: boolean;
}

/** Routes that must stay reachable without a token and are not worth a log line per call. */
export const PROBE_PATHS = ['/health/live', '/health/ready', '/metrics'] as const;
