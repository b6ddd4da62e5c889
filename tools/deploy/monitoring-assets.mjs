#!/usr/bin/env node
// Writes the monitoring files derived from deploy/monitoring/: a Grafana dashboard per fleet service
// and one for the fleet (deploy/monitoring/dashboards/*.json), and the PrometheusRule of the optional
// kustomize component (k8s/components/monitoring/prometheus-rules.yaml, the groups of
// deploy/monitoring/rules/*.rules.yml as they are). Generated rather than hand-edited so the panels
// stay alike across services and the PrometheusRule never drifts from the rules promtool tests.
//
//   node tools/deploy/monitoring-assets.mjs          writes them
//   node tools/deploy/monitoring-assets.mjs --check  exits 1 naming each file that is not up to date
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { parse, stringify } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The fleet's services (`@lp/fleet`; tools/deploy/monitoring.int-spec.ts checks the list matches). */
export const SERVICES = ['policy-management', 'authz-decision', 'operations', 'case-management', 'mcp-gateway', 'workflow-engine', 'webhook-dispatcher'];

const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };
const NS = 'namespace=~"$namespace"';

let nextId = 1;
function panel(title, targets, { unit = 'short', w = 12, h = 8, description, type = 'timeseries', max } = {}) {
  return {
    id: nextId++,
    type,
    title,
    ...(description ? { description } : {}),
    datasource: DATASOURCE,
    gridPos: { h, w, x: 0, y: 0 },
    fieldConfig: { defaults: { unit, ...(max !== undefined ? { max } : {}) }, overrides: [] },
    options: type === 'timeseries' ? { legend: { displayMode: 'table', placement: 'bottom', calcs: ['lastNotNull', 'max'] } } : {},
    targets: targets.map(([expr, legendFormat], index) => ({ datasource: DATASOURCE, expr, legendFormat, refId: String.fromCharCode(65 + index) })),
  };
}
const row = (title) => ({ id: nextId++, type: 'row', title, collapsed: false, gridPos: { h: 1, w: 24, x: 0, y: 0 }, panels: [] });

/** Lays the panels out left to right, 24 columns wide, a row title starting a new line. */
function layout(panels) {
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  for (const p of panels) {
    if (p.type === 'row' || x + p.gridPos.w > 24) {
      y += rowHeight;
      x = 0;
      rowHeight = 0;
    }
    p.gridPos = { ...p.gridPos, x, y };
    if (p.type === 'row') {
      y += 1;
      continue;
    }
    x += p.gridPos.w;
    rowHeight = Math.max(rowHeight, p.gridPos.h);
  }
  return panels;
}

function dashboard(uid, title, description, panels) {
  nextId = 1;
  return {
    uid,
    title,
    description,
    tags: ['legal-platform'],
    timezone: 'utc',
    schemaVersion: 39,
    version: 1,
    editable: true,
    refresh: '30s',
    time: { from: 'now-6h', to: 'now' },
    templating: {
      list: [
        { name: 'datasource', label: 'Prometheus', type: 'datasource', query: 'prometheus', current: {} },
        {
          name: 'namespace',
          label: 'Namespace',
          type: 'query',
          datasource: DATASOURCE,
          query: { query: 'label_values(up, namespace)', refId: 'namespace' },
          definition: 'label_values(up, namespace)',
          refresh: 2,
          includeAll: true,
          multi: true,
          current: {},
        },
      ],
    },
    annotations: { list: [] },
    panels: layout(panels()),
  };
}

/** The rows every service has: HTTP, RPC, admission, messaging, cache, process. */
function commonPanels(service) {
  const S = `service="${service}",${NS}`;
  const J = `job="${service}",${NS}`;
  return [
    row('HTTP'),
    panel('Requests by status', [[`sum by (status) (rate(http_request_duration_seconds_count{${S}}[5m]))`, '{{status}}']], { unit: 'reqps', w: 8 }),
    panel('5xx ratio (SLO 99.5 %)', [[`slo:http_errors:ratio_rate5m{${S}}`, '{{namespace}}']], { unit: 'percentunit', w: 8 }),
    panel(
      'Latency p50 / p99 (objective p99 < 1 s)',
      [
        [`histogram_quantile(0.5, sum by (le) (rate(http_request_duration_seconds_bucket{${S}}[5m])))`, 'p50'],
        [`slo:http_latency_seconds:p99_rate5m{${S}}`, 'p99 {{namespace}}'],
      ],
      { unit: 's', w: 8 },
    ),
    panel(
      'Slowest routes (p99)',
      [[`topk(10, histogram_quantile(0.99, sum by (route, le) (rate(http_request_duration_seconds_bucket{${S}}[5m]))))`, '{{route}}']],
      {
        unit: 's',
        w: 12,
      },
    ),
    panel('Authorization.Unavailable (guard failed closed)', [[`sum by (cause) (rate(authz_guard_unavailable_total{${J}}[5m]))`, '{{cause}}']], {
      unit: 'reqps',
      w: 12,
    }),
    row('RPC'),
    panel('Handled by pattern and outcome', [[`sum by (pattern, outcome) (rate(rpc_handler_duration_seconds_count{${S}}[5m]))`, '{{pattern}} {{outcome}}']], {
      unit: 'reqps',
      w: 8,
    }),
    panel('Handler p99 by pattern', [[`histogram_quantile(0.99, sum by (pattern, le) (rate(rpc_handler_duration_seconds_bucket{${S}}[5m])))`, '{{pattern}}']], {
      unit: 's',
      w: 8,
    }),
    panel('Dropped: caller gave up', [[`sum by (pattern) (rate(rpc_requests_expired_total{${S}}[5m]))`, '{{pattern}}']], { unit: 'reqps', w: 8 }),
    row('Admission'),
    panel('Requests by admission outcome', [[`sum by (outcome) (rate(admission_requests_total{process="${service}",${NS}}[5m]))`, '{{outcome}}']], {
      unit: 'reqps',
      w: 12,
    }),
    panel(
      'Concurrency: limit, in flight, queued',
      [
        [`sum by (pod) (admission_concurrency_limit{process="${service}",${NS}})`, 'limit {{pod}}'],
        [`sum by (pod) (admission_in_flight{process="${service}",${NS}})`, 'in flight {{pod}}'],
        [`sum by (pod) (admission_queue_length{process="${service}",${NS}})`, 'queued {{pod}}'],
      ],
      { w: 12 },
    ),
    row('Messaging and cache'),
    panel(
      'Outbox: unsent rows and oldest age',
      [
        [`max by (pod) (outbox_unsent_rows{${S}})`, 'rows {{pod}}'],
        [`max by (pod) (outbox_unsent_oldest_age_seconds{${S}})`, 'oldest (s) {{pod}}'],
      ],
      { w: 8, description: 'Alerts: OutboxBacklogAging (> 2 min), OutboxBacklogStuck (> 15 min).' },
    ),
    panel('RabbitMQ consumers up', [[`min by (pod, consumer) (amqp_consumer_up{${S}})`, '{{consumer}} {{pod}}']], {
      w: 8,
      max: 1,
      description: 'Alert: RabbitMqConsumerGone (0 for 2 min).',
    }),
    panel('Redis connections failing fast', [[`max by (pod) (cache_breaker_open_connections{${J}})`, '{{pod}}']], {
      w: 8,
      description: 'Alert: CacheBreakerOpen (> 0 for 2 min).',
    }),
    row('Process'),
    panel('CPU', [[`sum by (pod) (rate(process_cpu_seconds_total{${J}}[5m]))`, '{{pod}}']], { unit: 'percentunit', w: 8 }),
    panel(
      'Memory',
      [
        [`max by (pod) (process_resident_memory_bytes{${J}})`, 'RSS {{pod}}'],
        [`sum by (pod) (nodejs_heap_size_used_bytes{${J}})`, 'heap used {{pod}}'],
      ],
      { unit: 'bytes', w: 8 },
    ),
    panel('Event loop lag p99', [[`max by (pod) (nodejs_eventloop_lag_p99_seconds{${J}})`, '{{pod}}']], { unit: 's', w: 8 }),
  ];
}

/** What only this service shows, first on its dashboard. */
const OWN_PANELS = {
  'authz-decision': () => [
    row('Decisions (SLO 99.9 %, p99 < 50 ms)'),
    panel(
      'Decision RPC error ratio',
      [
        [`slo:authz_decide_errors:ratio_rate5m{${NS}}`, '5m {{namespace}}'],
        [`slo:authz_decide_errors:ratio_rate1h{${NS}}`, '1h {{namespace}}'],
      ],
      {
        unit: 'percentunit',
        w: 8,
      },
    ),
    panel('authz.decide p99', [[`slo:authz_decide_latency_seconds:p99_rate5m{${NS}}`, '{{namespace}}']], { unit: 's', w: 8 }),
    panel('Decisions by outcome', [[`sum by (outcome, cached) (rate(authz_decisions_total{${NS}}[5m]))`, '{{outcome}} cached={{cached}}']], {
      unit: 'reqps',
      w: 8,
    }),
    panel('Decision cache hit ratio', [[`sum(rate(authz_decisions_total{cached="true",${NS}}[5m])) / sum(rate(authz_decisions_total{${NS}}[5m]))`, 'hits']], {
      unit: 'percentunit',
      w: 8,
    }),
    panel(
      'Decision audit: backlog, spooled, failed writes in a row',
      [
        [`max by (pod) (authz_audit_backlog_records{${NS}})`, 'backlog {{pod}}'],
        [`max by (pod) (authz_audit_spooled_records{${NS}})`, 'spooled {{pod}}'],
        [`max by (pod) (authz_audit_write_failures_consecutive{${NS}})`, 'failures {{pod}}'],
      ],
      { w: 16, description: 'Alert: DecisionAuditSpoolNotEmpty. Decisions fail closed at AUDIT_BACKLOG_LIMIT.' },
    ),
  ],
  operations: () => [
    row('Jobs'),
    panel('Job runs by status', [[`sum by (status) (increase(operations_job_runs_total{${NS}}[1h]))`, '{{status}}']], { w: 12 }),
    panel(
      'Failed, abandoned and skipped runs by job (1 h)',
      [[`sum by (job_name, status) (increase(operations_job_runs_total{status!="succeeded",${NS}}[1h])) > 0`, '{{job_name}} {{status}}']],
      { w: 12, description: 'Alerts: JobRunsFailed, JobRunsAbandoned, JobRunsSkipped.' },
    ),
    panel('Job catalog reconciliations', [[`sum by (source, outcome) (increase(operations_job_catalog_syncs_total{${NS}}[1h]))`, '{{source}} {{outcome}}']], {
      w: 24,
    }),
  ],
  'webhook-dispatcher': () => [
    row('Deliveries'),
    panel('Attempts by verdict', [[`sum by (verdict) (rate(webhook_delivery_attempts_total{${NS}}[5m]))`, '{{verdict}}']], { unit: 'reqps', w: 8 }),
    panel('Dead-lettered (15 min)', [[`sum(increase(webhook_delivery_attempts_total{verdict="dead",${NS}}[15m]))`, 'dead']], {
      w: 8,
      description: 'Alert: WebhookDeadLetters.',
    }),
    panel(
      'Due deliveries and oldest due',
      [
        [`max(webhook_deliveries_due{${NS}})`, 'due'],
        [`max(webhook_deliveries_due_oldest_age_seconds{${NS}})`, 'oldest due (s)'],
      ],
      { w: 8, description: 'Alert: WebhookDeliveryOverdue (> 5 min).' },
    ),
    panel('Receivers answered', [[`sum by (answer) (rate(webhook_delivery_attempts_total{${NS}}[5m]))`, '{{answer}}']], { unit: 'reqps', w: 24 }),
  ],
  'mcp-gateway': () => [
    row('MCP tools'),
    panel('tools/call by tool and outcome', [[`sum by (tool, outcome) (rate(mcp_tool_call_duration_seconds_count{${NS}}[5m]))`, '{{tool}} {{outcome}}']], {
      unit: 'reqps',
      w: 12,
    }),
    panel('tools/call p99 by tool', [[`histogram_quantile(0.99, sum by (tool, le) (rate(mcp_tool_call_duration_seconds_bucket{${NS}}[5m])))`, '{{tool}}']], {
      unit: 's',
      w: 12,
    }),
  ],
};

const serviceDashboard = (service) => () => [...(OWN_PANELS[service]?.() ?? []), ...commonPanels(service)];

const fleetPanels = () => [
  row('Fleet'),
  panel('Targets up', [[`sum by (job) (up{${NS}})`, '{{job}}']], { w: 8 }),
  panel('HTTP 5xx ratio by service (SLO 99.5 %)', [[`slo:http_errors:ratio_rate5m{${NS}}`, '{{service}}']], { unit: 'percentunit', w: 8 }),
  panel('HTTP p99 by service (objective 1 s)', [[`slo:http_latency_seconds:p99_rate5m{${NS}}`, '{{service}}']], { unit: 's', w: 8 }),
  row('Decisions'),
  panel(
    'Decision RPC error ratio (SLO 99.9 %)',
    [
      [`slo:authz_decide_errors:ratio_rate1h{${NS}}`, '1h {{namespace}}'],
      [`slo:authz_decide_errors:ratio_rate6h{${NS}}`, '6h {{namespace}}'],
    ],
    {
      unit: 'percentunit',
      w: 8,
    },
  ),
  panel('authz.decide p99 (objective 50 ms)', [[`slo:authz_decide_latency_seconds:p99_rate5m{${NS}}`, '{{namespace}}']], { unit: 's', w: 8 }),
  panel('Authorization.Unavailable by service', [[`sum by (job, cause) (rate(authz_guard_unavailable_total{${NS}}[5m]))`, '{{job}} {{cause}}']], {
    unit: 'reqps',
    w: 8,
  }),
  row('Backlogs'),
  panel('Outbox oldest unsent by service', [[`max by (service) (outbox_unsent_oldest_age_seconds{${NS}})`, '{{service}}']], { unit: 's', w: 8 }),
  panel('Webhook oldest due delivery', [[`max(webhook_deliveries_due_oldest_age_seconds{${NS}})`, 'oldest due']], { unit: 's', w: 8 }),
  panel('Decision audit spooled records', [[`sum(authz_audit_spooled_records{${NS}})`, 'spooled']], { w: 8 }),
  row('Failures'),
  panel('RabbitMQ consumers down', [[`count by (service, consumer) (amqp_consumer_up{${NS}} == 0)`, '{{service}} {{consumer}}']], { w: 6 }),
  panel('Redis connections failing fast', [[`sum by (job) (cache_breaker_open_connections{${NS}})`, '{{job}}']], { w: 6 }),
  panel('Webhook dead letters (15 min)', [[`sum(increase(webhook_delivery_attempts_total{verdict="dead",${NS}}[15m]))`, 'dead']], { w: 6 }),
  panel('Job runs not succeeded (1 h)', [[`sum by (status) (increase(operations_job_runs_total{status!="succeeded",${NS}}[1h]))`, '{{status}}']], { w: 6 }),
  row('Load'),
  panel(
    'Admission refused or expired by process',
    [[`sum by (process, outcome) (rate(admission_requests_total{outcome=~"refused|expired",${NS}}[5m]))`, '{{process}} {{outcome}}']],
    {
      unit: 'reqps',
      w: 12,
    },
  ),
  panel('Memory by service', [[`sum by (job) (process_resident_memory_bytes{${NS}})`, '{{job}}']], { unit: 'bytes', w: 12 }),
];

/** Every generated file: path relative to the root, and its text (as Prettier formats it: `npm run lint` checks every file). */
export async function monitoringAssets() {
  const files = new Map();
  const json = (value) => `${JSON.stringify(value, null, 2)}\n`;
  files.set(
    'deploy/monitoring/dashboards/fleet.json',
    json(dashboard('lp-fleet', 'Legal platform: fleet', 'SLOs, backlogs and failures across the fleet.', fleetPanels)),
  );
  for (const service of SERVICES) {
    files.set(
      `deploy/monitoring/dashboards/${service}.json`,
      json(
        dashboard(
          `lp-${service}`,
          `Legal platform: ${service}`,
          `${service}: its own signals, then HTTP, RPC, admission, messaging, cache, process.`,
          serviceDashboard(service),
        ),
      ),
    );
  }
  const rulesDir = join(root, 'deploy/monitoring/rules');
  const groups = readdirSync(rulesDir)
    .filter((name) => name.endsWith('.rules.yml'))
    .sort()
    .flatMap((name) => parse(readFileSync(join(rulesDir, name), 'utf8')).groups);
  const rule = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { name: 'legal-platform', labels: { 'app.kubernetes.io/name': 'legal-platform' } },
    spec: { groups },
  };
  files.set(
    'k8s/components/monitoring/prometheus-rules.yaml',
    `# Generated by tools/deploy/monitoring-assets.mjs from deploy/monitoring/rules/*.rules.yml: edit those, then run it.\n${stringify(rule, { lineWidth: 0 })}`,
  );
  for (const [path, text] of files) {
    const filepath = join(root, path);
    files.set(path, await prettier.format(text, { ...(await prettier.resolveConfig(filepath)), filepath }));
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const [path, text] of await monitoringAssets()) {
    const file = join(root, path);
    let current;
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      current = undefined;
    }
    if (current === text) continue;
    if (check) stale.push(path);
    else writeFileSync(file, text);
  }
  if (stale.length) {
    process.stderr.write(`not up to date (run node tools/deploy/monitoring-assets.mjs):\n${stale.join('\n')}\n`);
    process.exit(1);
  }
}
