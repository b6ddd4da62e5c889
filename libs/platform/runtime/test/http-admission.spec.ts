import type { AddressInfo } from 'node:net';
import type { ServerResponse } from 'node:http';
import { admitHttpRequests, createProcessAdmission, ProcessAdmission } from '@lp/platform/admission';
import { metricsRegistry } from '@lp/platform/observability';
import { eventually } from '@lp/platform/testing';
import { createHttpServer, PlatformHttpServer } from '../src/http-server';

/**
 * Admission control in front of a real HTTP server on loopback, as `runService` and
 * `runStandalone` put it: `/work` requests are held open by the spec until it releases them, so
 * what is in flight and what waits is decided by the spec, never by timing.
 */
describe('HTTP admission control', () => {
  const PROCESS = 'admission-spec';
  let server: PlatformHttpServer;
  let base: string;
  let admission: ProcessAdmission;
  let held: ServerResponse[];
  let served: number;

  async function start(settings: { limit: number; queueSize: number; queueTimeoutMs: number }): Promise<void> {
    held = [];
    served = 0;
    admission = createProcessAdmission(PROCESS, { mode: 'fixed', minLimit: 1, maxLimit: settings.limit, ...settings });
    server = createHttpServer(
      admitHttpRequests((req, res) => {
        if (req.url === '/work') {
          served += 1;
          held.push(res);
          return;
        }
        if (req.url === '/metrics') {
          void metricsRegistry.metrics().then((text) => res.end(text));
          return;
        }
        res.end('ok');
      }, admission.controller),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  function releaseHeld(): void {
    for (const res of held.splice(0)) res.end('done');
  }

  async function metric(line: RegExp): Promise<number> {
    const text = await (await fetch(`${base}/metrics`)).text();
    const match = text.split('\n').find((l) => line.test(l));
    return match ? Number(match.split(' ').pop()) : Number.NaN;
  }

  afterEach(async () => {
    releaseHeld();
    admission.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('refuses a burst beyond the limit at once with 503 and Retry-After while admitted work completes; probes are never shed; serves again after', async () => {
    await start({ limit: 2, queueSize: 2, queueTimeoutMs: 60_000 });
    const refusedBefore = await metric(new RegExp(`^admission_requests_total\\{process="${PROCESS}",outcome="refused"\\}`));

    const admitted = [fetch(`${base}/work`), fetch(`${base}/work`)];
    await eventually(
      async () => held.length,
      (n) => n === 2,
    );
    const queued = [fetch(`${base}/work`), fetch(`${base}/work`)];
    await eventually(
      async () => admission.controller.queued,
      (n) => n === 2,
    );

    // The burst: nothing of it reaches the handler, every request is answered at once.
    const burst = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const started = performance.now();
        const res = await fetch(`${base}/work`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
        return { res, ms: performance.now() - started, body: (await res.json()) as { status: number; code: string; correlationId: string } };
      }),
    );
    for (const { res, ms, body } of burst) {
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(body).toMatchObject({ status: 503, code: 'ServiceUnavailable', correlationId: res.headers.get('x-correlation-id') });
      // Answered without waiting for a slot (the held requests never finish before the spec says so).
      expect(ms).toBeLessThan(1_000);
    }
    expect(served).toBe(2);

    // Probes and metrics while every slot and the whole queue are taken.
    for (const path of ['/health/live', '/health/ready']) expect((await fetch(`${base}${path}`)).status).toBe(200);
    expect(await metric(new RegExp(`^admission_in_flight\\{process="${PROCESS}"\\}`))).toBe(2);
    expect(await metric(new RegExp(`^admission_queue_length\\{process="${PROCESS}"\\}`))).toBe(2);
    expect(await metric(new RegExp(`^admission_concurrency_limit\\{process="${PROCESS}"\\}`))).toBe(2);
    expect(await metric(new RegExp(`^admission_requests_total\\{process="${PROCESS}",outcome="refused"\\}`))).toBe((refusedBefore || 0) + 10);

    // The admitted work completes, then the queued requests get the slots and complete too.
    releaseHeld();
    expect(await Promise.all(admitted.map(async (r) => [(await r).status, await (await r).text()]))).toEqual([
      [200, 'done'],
      [200, 'done'],
    ]);
    await eventually(
      async () => held.length,
      (n) => n === 2,
    );
    releaseHeld();
    expect((await Promise.all(queued)).map((r) => r.status)).toEqual([200, 200]);

    // Recovery: the burst left nothing behind, the full width is available again.
    const after = [fetch(`${base}/work`), fetch(`${base}/work`)];
    await eventually(
      async () => held.length,
      (n) => n === 2,
    );
    releaseHeld();
    expect((await Promise.all(after)).map((r) => r.status)).toEqual([200, 200]);
    expect([admission.controller.inFlight, admission.controller.queued]).toEqual([0, 0]);
  });

  it('answers a request still waiting at the queue deadline with 503, and never runs it', async () => {
    await start({ limit: 1, queueSize: 4, queueTimeoutMs: 100 });
    const first = fetch(`${base}/work`);
    await eventually(
      async () => held.length,
      (n) => n === 1,
    );
    const waiting = await fetch(`${base}/work`);
    expect(waiting.status).toBe(503);
    expect(waiting.headers.get('retry-after')).toBe('1');
    expect(((await waiting.json()) as { code: string }).code).toBe('ServiceUnavailable');
    releaseHeld();
    expect((await first).status).toBe(200);
    expect(served).toBe(1);
  });
});
