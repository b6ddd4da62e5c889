import { collectDefaultMetrics, Counter, Gauge, Histogram, register, Registry } from 'prom-client';

/**
 * One process-wide registry: in the standalone profile several services share a process, so every
 * metric carries a `service` label instead of each service owning a registry (their families would
 * collide when exposed together).
 */
export const metricsRegistry: Registry = register;

let defaultsCollected = false;
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

function singleton<T>(name: string, create: () => T): T {
  return (metricsRegistry.getSingleMetric(name) as T | undefined) ?? create();
}

export const httpRequestDuration = singleton(
  'http_request_duration_seconds',
  () =>
    new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by service, method, route and status.',
      labelNames: ['service', 'method', 'route', 'status'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [metricsRegistry],
    }),
);

export const rpcHandlerDuration = singleton(
  'rpc_handler_duration_seconds',
  () =>
    new Histogram({
      name: 'rpc_handler_duration_seconds',
      help: 'RPC handler latency by service, pattern and outcome.',
      labelNames: ['service', 'pattern', 'outcome'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers: [metricsRegistry],
    }),
);

/** The MCP gateway's tools/call latency by tool and outcome (succeeded, invalid, denied, not_found, failed, rate_limited). */
export const mcpToolCallDuration = singleton(
  'mcp_tool_call_duration_seconds',
  () =>
    new Histogram({
      name: 'mcp_tool_call_duration_seconds',
      help: 'MCP tools/call latency by service, tool and outcome.',
      labelNames: ['service', 'tool', 'outcome'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [metricsRegistry],
    }),
);

export const outboxLag = singleton(
  'outbox_unsent_oldest_age_seconds',
  () =>
    new Gauge({
      name: 'outbox_unsent_oldest_age_seconds',
      help: 'Age of the oldest outbox row not yet confirmed by the broker.',
      labelNames: ['service'] as const,
      registers: [metricsRegistry],
    }),
);

export const outboxPending = singleton(
  'outbox_unsent_rows',
  () =>
    new Gauge({
      name: 'outbox_unsent_rows',
      help: 'Outbox rows not yet confirmed by the broker.',
      labelNames: ['service'] as const,
      registers: [metricsRegistry],
    }),
);

export const decisionOutcomes = singleton(
  'authz_decisions_total',
  () =>
    new Counter({
      name: 'authz_decisions_total',
      help: 'Authorization decisions by outcome and whether they came from the cache.',
      labelNames: ['outcome', 'cached'] as const,
      registers: [metricsRegistry],
    }),
);

export const authorizationUnavailable = singleton(
  'authz_guard_unavailable_total',
  () =>
    new Counter({
      name: 'authz_guard_unavailable_total',
      help: 'Guarded requests refused with 503 Authorization.Unavailable because no decision could be made, by cause.',
      labelNames: ['cause'] as const,
      registers: [metricsRegistry],
    }),
);

/** Webhook delivery attempts by outcome (succeeded, retry, dead, gone) and by what the receiver answered (HTTP status class or error code). */
export const webhookDeliveryAttempts = singleton(
  'webhook_delivery_attempts_total',
  () =>
    new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by verdict (succeeded, retry, dead, gone) and answer (2xx, 4xx, 5xx, or the error code).',
      labelNames: ['verdict', 'answer'] as const,
      registers: [metricsRegistry],
    }),
);

/** Webhook deliveries due and not yet attempted (sampled by the dispatcher), and the age of the oldest. */
export const webhookDeliveryBacklog = singleton(
  'webhook_deliveries_due',
  () =>
    new Gauge({
      name: 'webhook_deliveries_due',
      help: 'Pending webhook deliveries whose due time has passed, on the last sample.',
      registers: [metricsRegistry],
    }),
);

export const webhookDeliveryOldestDueAge = singleton(
  'webhook_deliveries_due_oldest_age_seconds',
  () =>
    new Gauge({
      name: 'webhook_deliveries_due_oldest_age_seconds',
      help: 'How long the oldest pending webhook delivery has been due without an attempt (0 when none is due), on the last sample.',
      registers: [metricsRegistry],
    }),
);

/**
 * Operations' job catalog reconciliations, per owning service (`source`) and outcome (`reconciled`,
 * or `skipped` when the service did not answer or its answer could not be applied). A source whose
 * count stays at zero has not been reconciled since operations started.
 */
export const jobCatalogSyncs = singleton(
  'operations_job_catalog_syncs_total',
  () =>
    new Counter({
      name: 'operations_job_catalog_syncs_total',
      help: "Reconciliations of one service's job catalog with the job definitions, by source service and outcome (reconciled, skipped).",
      labelNames: ['source', 'outcome'] as const,
      registers: [metricsRegistry],
    }),
);

/** RPC requests dropped unexecuted because their caller's deadline had passed when they arrived. */
export const rpcRequestsExpired = singleton(
  'rpc_requests_expired_total',
  () =>
    new Counter({
      name: 'rpc_requests_expired_total',
      help: 'RPC requests not executed because their deadline (x-deadline) had passed on arrival: the caller had given up.',
      labelNames: ['service', 'pattern'] as const,
      registers: [metricsRegistry],
    }),
);

/**
 * Job runs by job and how they ended: succeeded, failed, skipped (a tick found the previous run still
 * going, or the owner declined) and abandoned (no answer before the lease ran out). Counted by the
 * operations instance that wrote the run's row.
 */
export const jobRuns = singleton(
  'operations_job_runs_total',
  () =>
    new Counter({
      name: 'operations_job_runs_total',
      help: 'Job runs by job name and final status (succeeded, failed, skipped, abandoned).',
      labelNames: ['job_name', 'status'] as const,
      registers: [metricsRegistry],
    }),
);

/**
 * 1 while this process consumes the queue, 0 once its consumer is gone: the connection dropped (the
 * reconnection sets it back to 1), or the broker cancelled the consumer (a deleted queue, a quorum
 * queue's leader lost) and nothing will come back by itself. `consumer`: rpc, events (the service's
 * durable queue) or instance-events (this instance's cache-invalidation queue).
 */
export const amqpConsumerUp = singleton(
  'amqp_consumer_up',
  () =>
    new Gauge({
      name: 'amqp_consumer_up',
      help: 'Whether this process consumes its RabbitMQ queue (1) or its consumer is gone (0), by service and consumer (rpc, events, instance-events).',
      labelNames: ['service', 'consumer'] as const,
      registers: [metricsRegistry],
    }),
);

/**
 * Redis connections of this process whose calls fail fast: the circuit breaker is open (Redis too
 * slow or failing) or the connection is down. Callers fall back to the source of truth meanwhile.
 */
export const cacheBreakerOpen = singleton(
  'cache_breaker_open_connections',
  () =>
    new Gauge({
      name: 'cache_breaker_open_connections',
      help: 'Redis connections of this process whose calls fail fast: circuit breaker open or connection down (callers use their fallback).',
      registers: [metricsRegistry],
    }),
);

/**
 * A gauge read when scraped: the sum of what every registered source reads (two instances of one
 * service may share a process, as tests run them). `track` returns the function that unregisters.
 */
function sampledGauge(name: string, help: string): (read: () => number) => () => void {
  const sources = new Set<() => number>();
  singleton(
    name,
    () =>
      new Gauge({
        name,
        help,
        registers: [metricsRegistry],
        collect() {
          let sum = 0;
          for (const read of sources) sum += read();
          this.set(sum);
        },
      }),
  );
  return (read) => {
    sources.add(read);
    return () => sources.delete(read);
  };
}

/** The decision audit writer's state: records not yet in the database, those of them kept on disk, and failed writes in a row. */
export const decisionAuditGauges = {
  backlog: sampledGauge(
    'authz_audit_backlog_records',
    'Decision audit records not yet written to the database (decisions fail closed at AUDIT_BACKLOG_LIMIT).',
  ),
  spooled: sampledGauge(
    'authz_audit_spooled_records',
    'Of those, records kept in the local spool or journal file until the database takes them (under strict durability every record passes through it).',
  ),
  failures: sampledGauge('authz_audit_write_failures_consecutive', 'Failed decision audit writes in a row (0 once a write succeeds).'),
};
