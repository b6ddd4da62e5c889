import { ChildProcess, spawn, spawnSync, SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { fleetServices } from '@lp/fleet';
import { describeWithCommands } from '@lp/platform/testing';

/**
 * deploy/monitoring checked offline (docs/operations/runbook.md): promtool's syntax check and unit
 * tests of the rules, what every alert must carry, the generated dashboards and PrometheusRule in step
 * with the rules, the optional kustomize component, and every metric an alert, recording rule or
 * panel names served on /metrics by a real platform process (one standalone start for the lot).
 * .ci/run installs promtool (Debian package `prometheus`) and kubectl; outside CI a missing tool skips
 * the suite with a visible notice, under CI=true it fails.
 */
const root = join(__dirname, '..', '..');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

function run(command: string, args: string[], options: { cwd?: string; input?: string } = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd: options.cwd ?? root, input: options.input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}
function ok(result: SpawnSyncReturns<string>, what: string): string {
  if (result.status !== 0) throw new Error(`${what} exited ${result.status}:\n${result.stderr}${result.stdout}`);
  return result.stdout;
}
const read = (path: string) => readFileSync(join(root, path), 'utf8');

const RULES_DIR = 'deploy/monitoring/rules';
const ruleFiles = readdirSync(join(root, RULES_DIR))
  .filter((name) => name.endsWith('.rules.yml'))
  .map((name) => `${RULES_DIR}/${name}`);
const rules: Rule[] = ruleFiles.flatMap((file) => (parse(read(file)) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap((group) => group.rules));
const alerts = rules.filter((rule) => rule.alert);
const recorded = new Map(rules.filter((rule) => rule.record).map((rule) => [rule.record as string, rule.expr]));

const DASHBOARDS_DIR = 'deploy/monitoring/dashboards';
const dashboards = readdirSync(join(root, DASHBOARDS_DIR)).map((name) => ({ name, json: JSON.parse(read(`${DASHBOARDS_DIR}/${name}`)) as Json }));
const panelsOf = (dashboard: Json): Json[] => (dashboard.panels as Json[]).flatMap((panel) => [panel, ...((panel.panels as Json[] | undefined) ?? [])]);
const panelExprs = dashboards.flatMap(({ name, json }) =>
  panelsOf(json).flatMap((panel) =>
    ((panel.targets as Json[] | undefined) ?? []).map((target) => ({ where: `${name}: ${panel.title}`, expr: target.expr as string })),
  ),
);

const PROMQL_WORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'inf', 'nan']);
/** Series Prometheus makes itself (no service serves them). */
const PROMETHEUS_OWN = new Set(['up']);

/**
 * The metric names a PromQL expression reads: the identifiers left once strings, label matchers,
 * grouping clauses, ranges and function calls are set aside. Recording rules' names (`a:b:c`) stand
 * for the metrics of their own expression.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/(?<![\w.$])([a-zA-Z_:][\w:]*)(?![\w:])(?!\s*\()/g)) {
    const name = match[1] as string;
    if (PROMQL_WORDS.has(name.toLowerCase())) continue;
    const expression = recorded.get(name);
    if (expression !== undefined) for (const inner of metricNames(expression)) names.add(inner);
    else names.add(name);
  }
  return [...names];
}

describeWithCommands(['promtool', 'kubectl'], 'deploy/monitoring', () => {
  describe('rules', () => {
    it('pass promtool check rules', () => {
      const out = ok(run('promtool', ['check', 'rules', ...ruleFiles]), 'promtool check rules');
      expect(out).toMatch(/SUCCESS/);
    });

    it('pass their promtool unit tests, and every alert has a test in which it fires', () => {
      ok(run('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: join(root, 'deploy/monitoring/tests') }), 'promtool test rules');
      const tests = parse(read('deploy/monitoring/tests/alerts.test.yml')) as {
        tests: Array<{ alert_rule_test?: Array<{ alertname: string; exp_alerts: unknown[] }> }>;
      };
      const firing = new Set(tests.tests.flatMap((t) => (t.alert_rule_test ?? []).filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname)));
      expect(alerts.map((a) => a.alert).filter((name) => !firing.has(name as string))).toEqual([]);
      expect(alerts.length).toBeGreaterThanOrEqual(12);
    });

    it('give every alert a severity, a summary, a description and a runbook_url to its own section of the runbook', () => {
      const runbook = read('docs/operations/runbook.md');
      // GitHub's anchors: the heading in lower case, spaces to dashes, punctuation dropped.
      const anchors = new Set(
        [...runbook.matchAll(/^#{2,4} (.+)$/gm)].map((m) =>
          (m[1] as string)
            .toLowerCase()
            .replace(/[^\w\- ]/g, '')
            .replace(/ /g, '-'),
        ),
      );
      for (const alert of alerts) {
        expect([alert.alert, alert.labels?.severity]).toEqual([alert.alert, expect.stringMatching(/^(critical|warning)$/)]);
        expect([alert.alert, alert.annotations?.summary, alert.annotations?.description]).toEqual([alert.alert, expect.any(String), expect.any(String)]);
        const url = alert.annotations?.runbook_url ?? '';
        expect([alert.alert, url]).toEqual([
          alert.alert,
          `{{ $externalLabels.runbook_base_url }}/docs/operations/runbook.md#${(alert.alert as string).toLowerCase()}`,
        ]);
        expect([alert.alert, anchors.has((alert.alert as string).toLowerCase())]).toEqual([alert.alert, true]);
        // The section says what it means, how to confirm it and what to do.
        const section = runbook.split(`### ${alert.alert}\n`)[1]?.split(/\n### /)[0] ?? '';
        for (const part of ['**Means.**', '**Confirm.**', '**Do.**']) expect([alert.alert, section.includes(part)]).toEqual([alert.alert, true]);
      }
    });

    it('cover what the SLOs and the issue name: decisions, Authorization.Unavailable, outbox, webhooks, jobs, consumers, cache, audit spool', () => {
      const reading = (metric: string) => alerts.filter((a) => metricNames(a.expr).includes(metric)).map((a) => a.alert);
      expect(reading('rpc_handler_duration_seconds_count')).toEqual(
        expect.arrayContaining(['AuthzDecisionErrorBudgetFastBurn', 'AuthzDecisionErrorBudgetSlowBurn']),
      );
      expect(reading('rpc_handler_duration_seconds_bucket')).toEqual(['AuthzDecisionLatencyP99High']);
      for (const metric of [
        'authz_guard_unavailable_total',
        'outbox_unsent_oldest_age_seconds',
        'webhook_delivery_attempts_total',
        'webhook_deliveries_due_oldest_age_seconds',
        'operations_job_runs_total',
        'amqp_consumer_up',
        'cache_breaker_open_connections',
        'authz_audit_spooled_records',
      ])
        expect([metric, reading(metric).length > 0]).toEqual([metric, true]);
      for (const status of ['failed', 'abandoned', 'skipped'])
        expect(alerts.some((a) => a.expr.includes(`operations_job_runs_total{status="${status}"}`))).toBe(true);
    });
  });

  describe('generated files', () => {
    it('are up to date with the rules (tools/deploy/monitoring-assets.mjs): a dashboard per fleet service and one for the fleet', () => {
      ok(run(process.execPath, ['tools/deploy/monitoring-assets.mjs', '--check']), 'monitoring-assets --check');
      expect(dashboards.map((d) => d.name).sort()).toEqual([...fleetServices.map((s) => `${s.name}.json`), 'fleet.json'].sort());
      const uids = dashboards.map((d) => d.json.uid as string);
      expect(new Set(uids).size).toBe(uids.length);
      for (const { name, json } of dashboards) {
        const ids = panelsOf(json).map((p) => p.id as number);
        expect([name, new Set(ids).size]).toEqual([name, ids.length]);
        expect([name, panelsOf(json).filter((p) => p.type !== 'row' && !(p.targets as Json[] | undefined)?.length)]).toEqual([name, []]);
      }
    });

    it('renders the optional component onto an overlay: the PrometheusRule holds the rules as tested, the ServiceMonitor every app, strictly valid', () => {
      const dir = mkdtempSync(join(tmpdir(), 'lp-monitoring-kustomize-'));
      try {
        // kustomize takes no absolute path: relative to the temporary overlay.
        const to = (path: string) => relative(dir, join(root, path));
        writeFileSync(
          join(dir, 'kustomization.yaml'),
          `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: legal-platform\nresources: [${to('k8s/overlays/prod')}]\ncomponents: [${to('k8s/components/monitoring')}]\n`,
        );
        const rendered = ok(run('kubectl', ['kustomize', dir]), 'kubectl kustomize');
        const objects = JSON.parse(ok(run(process.execPath, ['tools/deploy/validate-k8s.mjs', '--kubernetes'], { input: rendered }), 'validate-k8s')) as Json[];
        const rule = objects.find((o) => o.kind === 'PrometheusRule') as Json;
        expect(rule.metadata.namespace).toBe('legal-platform');
        expect(rule.spec.groups).toEqual(ruleFiles.sort().flatMap((file) => (parse(read(file)) as Json).groups));
        const monitor = objects.find((o) => o.kind === 'ServiceMonitor') as Json;
        expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: 'http', path: '/metrics', honorLabels: true })]);
        // It selects every app's Service (the services and the console) and nothing else.
        const selected = objects.filter(
          (o) =>
            o.kind === 'Service' && (monitor.spec.selector.matchExpressions[0].values as string[]).includes(o.metadata.labels?.['app.kubernetes.io/component']),
        );
        expect(selected.map((s) => s.metadata.name).sort()).toEqual([...fleetServices.map((s) => s.name), 'console'].sort());
        for (const service of selected) expect(service.spec.ports.map((p: Json) => p.name)).toContain('http');
        // Without the component, no object of the operator's CRDs: the base applies on a cluster without them.
        const base = ok(run('kubectl', ['kustomize', 'k8s/overlays/prod']), 'kubectl kustomize');
        expect(base).not.toMatch(/monitoring\.coreos\.com/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);
  });

  describe('metrics', () => {
    let families: Map<string, string>;
    let platform: ChildProcess | undefined;
    const dataDir = mkdtempSync(join(tmpdir(), 'lp-monitoring-'));

    beforeAll(async () => {
      // One standalone process: every service in one process, so its /metrics carries every family
      // any service registers (the registry is process-wide, each series labelled by service).
      const child = spawn(process.execPath, ['tools/run.mjs', 'apps/standalone/src/main.ts'], {
        cwd: root,
        env: { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', AMQP_URL: '', REDIS_URL: '', JWT_SECRET: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      platform = child;
      let out = '';
      const baseUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ready line within 120 s:\n${out}`)), 120_000);
        child.stdout?.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const url = /ready: (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
          if (url) {
            clearTimeout(timer);
            resolve(url);
          }
        });
        child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`standalone exited with ${code} before ready:\n${out}`));
        });
      });
      const text = await (await fetch(`${baseUrl}/metrics`)).text();
      families = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1] as string, m[2] as string]));
    }, 150_000);

    afterAll(async () => {
      if (platform && platform.exitCode === null) {
        const exited = new Promise((resolve) => platform?.once('exit', resolve));
        platform.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    }, 60_000);

    /** Whether /metrics serves the name: a family, or a histogram's (summary's) series of one. */
    const served = (name: string) => {
      if (families.has(name)) return true;
      const base = /^(.*)_(bucket|count|sum)$/.exec(name)?.[1];
      return base !== undefined && ['histogram', 'summary'].includes(families.get(base) ?? '');
    };

    it('are served for every metric an alert or recording rule reads', () => {
      const unserved = rules.flatMap((rule) =>
        metricNames(rule.expr)
          .filter((name) => !served(name) && !PROMETHEUS_OWN.has(name))
          .map((name) => `${rule.alert ?? rule.record}: ${name}`),
      );
      expect(unserved).toEqual([]);
      expect(rules.flatMap((rule) => metricNames(rule.expr)).length).toBeGreaterThan(20);
    });

    it('are served for every metric a dashboard panel reads', () => {
      const unserved = panelExprs.flatMap(({ where, expr }) =>
        metricNames(expr)
          .filter((name) => !served(name) && !PROMETHEUS_OWN.has(name))
          .map((name) => `${where}: ${name}`),
      );
      expect(unserved).toEqual([]);
      expect(panelExprs.length).toBeGreaterThan(100);
    });

    it('tell a metric name from the rest of an expression', () => {
      expect(
        metricNames('histogram_quantile(0.99, sum by (pattern, le) (rate(rpc_handler_duration_seconds_bucket{service="a",x=~"b|c"}[5m]))) > 0.05'),
      ).toEqual(['rpc_handler_duration_seconds_bucket']);
      expect(metricNames('max by (namespace, pod) (a_total) > 0 and on (pod) b_records == 0 unless c')).toEqual(['a_total', 'b_records', 'c']);
      expect(metricNames('slo:authz_decide_latency_seconds:p99_rate5m > 0.05')).toEqual(['rpc_handler_duration_seconds_bucket']);
      expect(served('no_such_metric_total')).toBe(false);
    });
  });
});
