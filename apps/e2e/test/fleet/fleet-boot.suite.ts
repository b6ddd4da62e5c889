import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fleetServices } from '@lp/fleet';
import { CONSOLE_APP, FleetProcesses } from '../support/fleet-processes';

/**
 * The fleet as deployed, one process per service (what `npm run start:fleet` and the image run),
 * boots and reports ready; the console's app serves from a process of its own. A suite of
 * fleet.int-spec.ts, on the fleet it shares.
 */
export function fleetBootSuite(fleet: FleetProcesses): void {
  describe('boots every service and the console in processes of their own', () => {
    it('serves every service from its own process, each ready on PostgreSQL, RabbitMQ and Redis', async () => {
      const pids = new Set<number>();
      for (const { name } of fleetServices) {
        const process = fleet.process(name);
        pids.add(process.child.pid as number);
        const response = await fetch(`${process.url}/health/ready`);
        expect({ service: name, status: response.status }).toEqual({ service: name, status: 200 });
      }
      expect(pids.size).toBe(fleetServices.length);
    });

    it('serves the admin console from a process of its own, given no connection URL or secret, with its health and metrics routes', async () => {
      const consoleApp = fleet.process(CONSOLE_APP);
      expect(fleetServices.map(({ name }) => fleet.process(name).child.pid)).not.toContain(consoleApp.child.pid);

      const page = await fetch(`${consoleApp.url}/console/`);
      expect([page.status, page.headers.get('content-type')]).toEqual([200, expect.stringMatching(/^text\/html/)]);
      const html = await page.text();
      expect(html).toContain('<div id="root"></div>');
      const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(`${consoleApp.url}${script}`);
      expect([asset.status, asset.headers.get('content-type'), asset.headers.get('cache-control')]).toEqual([
        200,
        expect.stringMatching(/javascript/),
        expect.stringContaining('immutable'),
      ]);
      // A screen's address is the SPA too (it routes itself).
      expect((await fetch(`${consoleApp.url}/console/jobs`)).status).toBe(200);

      const live = await fetch(`${consoleApp.url}/health/live`);
      const ready = await fetch(`${consoleApp.url}/health/ready`);
      expect([live.status, await live.json(), ready.status, await ready.json()]).toEqual([200, { status: 'ok' }, 200, { status: 'ok' }]);
      const metrics = await fetch(`${consoleApp.url}/metrics`);
      expect([metrics.status, metrics.headers.get('content-type')]).toEqual([200, expect.stringMatching(/^text\/plain/)]);
      expect(await metrics.text()).toContain('# TYPE');
    });

    it('answers HEAD as GET, 405 with Allow and 415 for content that is not JSON in every process, the console app included (RFC 9110)', async () => {
      /** Status, type, body and what every answer carries: the security headers and a correlation id. */
      const answer = async (url: string, init: RequestInit = {}) => {
        const res = await fetch(url, init);
        return {
          status: res.status,
          type: res.headers.get('content-type'),
          allow: res.headers.get('allow'),
          nosniff: res.headers.get('x-content-type-options'),
          correlated: res.headers.has('x-correlation-id'),
          body: await res.text(),
        };
      };
      const headMatchesGet = async (url: string) => {
        const [get, head] = [await answer(url), await answer(url, { method: 'HEAD' })];
        expect({ url, ...head }).toEqual({ url, ...get, body: '' });
        expect([get.status, get.nosniff, get.correlated]).toEqual([200, 'nosniff', true]);
      };
      const problemOf = async (url: string, init: RequestInit) => {
        const res = await answer(url, init);
        expect([res.type, res.nosniff, res.correlated]).toEqual([expect.stringMatching(/^application\/problem\+json/), 'nosniff', true]);
        return [res.status, (JSON.parse(res.body) as { code: string }).code, res.allow];
      };
      for (const { name } of fleetServices) {
        const url = fleet.url(name);
        for (const path of ['/health/live', '/health/ready', '/metrics', '/docs', `/openapi/${name}.json`]) await headMatchesGet(`${url}${path}`);
        expect(await problemOf(`${url}/health/live`, { method: 'POST' })).toEqual([405, 'MethodNotAllowed', 'GET, HEAD']);
      }
      const consoleApp = fleet.url(CONSOLE_APP);
      for (const path of ['/health/live', '/health/ready', '/metrics', '/console/']) await headMatchesGet(`${consoleApp}${path}`);
      expect(await problemOf(`${consoleApp}/metrics`, { method: 'DELETE' })).toEqual([405, 'MethodNotAllowed', 'GET, HEAD']);
      expect(await problemOf(`${consoleApp}/console/assets/app.js`, { method: 'POST' })).toEqual([405, 'MethodNotAllowed', 'GET, HEAD']);

      // Two services' API routes, with a token: the method first, then the content.
      const cases = `${fleet.url('case-management')}/api/cases`;
      const roles = `${fleet.url('policy-management')}/api/authorization/roles`;
      const reports = `${fleet.url('workflow-engine')}/api/workflow/reports/instances`;
      const auth = { Authorization: `Bearer ${fleet.token()}` };
      expect(await problemOf(cases, { method: 'DELETE', headers: auth })).toEqual([405, 'MethodNotAllowed', 'GET, HEAD, POST']);
      expect(await problemOf(roles, { method: 'PATCH', headers: auth })).toEqual([405, 'MethodNotAllowed', 'GET, HEAD, POST']);
      const bodies = [
        ['POST', cases],
        ['POST', roles],
        ['QUERY', reports],
      ] as const;
      for (const [method, url] of bodies) {
        const sent = await problemOf(url, { method, headers: { ...auth, 'Content-Type': 'text/plain' }, body: '{}' });
        expect({ method, url, sent }).toEqual({ method, url, sent: [415, 'UnsupportedMediaType', null] });
      }
    });

    it('keeps the console out of rotation while there is no build: live, but not ready, and /console/ says how to build it', async () => {
      const empty = mkdtempSync(join(tmpdir(), `${fleet.id}-console-`));
      const unbuilt = await fleet.startConsole({ CONSOLE_DIR: empty });
      try {
        const live = await fetch(`${unbuilt.url}/health/live`);
        const ready = await fetch(`${unbuilt.url}/health/ready`);
        expect([live.status, ready.status, ready.headers.get('content-type')]).toEqual([200, 503, expect.stringMatching(/^application\/problem\+json/)]);
        expect(await ready.json()).toMatchObject({ status: 503, code: 'Console.NotBuilt' });
        const head = await fetch(`${unbuilt.url}/health/ready`, { method: 'HEAD' });
        expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([503, ready.headers.get('content-type'), '']);
        const page = await fetch(`${unbuilt.url}/console/`);
        expect([page.status, ((await page.json()) as { detail: string }).detail]).toEqual([503, expect.stringContaining('npm run build:console')]);
      } finally {
        await fleet.kill(unbuilt);
        rmSync(empty, { recursive: true, force: true });
      }
    });
  });
}
