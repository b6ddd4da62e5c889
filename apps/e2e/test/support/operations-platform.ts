import { DataSource } from 'typeorm';
import { SEEDED_ADMIN_SUBJECT, SEEDED_TENANT } from '@lp/contracts';
import { AccessTokenSubject } from '@lp/platform/auth';
import { createServiceApp, ServiceApp } from '@lp/platform/runtime';
import { fleetServices } from '@lp/fleet';
import { authzDecisionService } from '@lp/service/authz-decision';
import { operationsService } from '@lp/service/operations';
import { policyManagementService } from '@lp/service/policy-management';
import { PolicyTestPlatform, signedRequests } from './policy-platform';

/**
 * The operations service (one or more instances, as replicas sharing one database and queue) with
 * policy-management and authz-decision behind its guard, on PostgreSQL, RabbitMQ and Redis, in a
 * database, queue prefix and key prefix of its own. Use inside
 * `describeWithServers(['postgres', 'rabbitmq', 'redis'], ...)`:
 *
 *   const platform = new OperationsTestPlatform('jobs');
 *   beforeAll(() => platform.start(), 90_000);
 *   afterAll(() => platform.stop());
 *   await platform.ops().get('/api/operations/jobs').expect(200);
 */
export class OperationsTestPlatform extends PolicyTestPlatform {
  readonly operations: ServiceApp[] = [];
  /** The fleet's other services (case-management, mcp-gateway, ...), one instance each, by name. */
  readonly services = new Map<string, ServiceApp>();
  /** operations' DataSource (schemas `ops` and `platform`). */
  opsSql!: DataSource;

  constructor(
    name: string,
    private readonly opsOptions: { operationsInstances?: number; env?: Record<string, string> } = {},
  ) {
    super(name, { env: opsOptions.env });
  }

  override async start(): Promise<this> {
    await super.start();
    for (let i = 0; i < (this.opsOptions.operationsInstances ?? 1); i++) this.operations.push(await createServiceApp(operationsService, this.runtime));
    const first = this.operations[0];
    if (!first) throw new Error('no operations instance');
    this.opsSql = first.app.get(DataSource);
    // The rest of the fleet, so operations' catalog sync and diagnostics find every service answering.
    const hosted = new Set<string>([policyManagementService.name, authzDecisionService.name, operationsService.name]);
    for (const service of fleetServices.filter((s) => !hosted.has(s.name))) this.services.set(service.name, await createServiceApp(service, this.runtime));
    return this;
  }

  override async stop(): Promise<void> {
    for (const { app } of [...this.services.values()].reverse()) await app.close();
    for (const { app } of [...this.operations].reverse()) await app.close();
    await super.stop();
  }

  /** One of the fleet's other services by name. */
  service(name: string): ServiceApp {
    const app = this.services.get(name);
    if (!app) throw new Error(`service ${name} is not hosted by this platform`);
    return app;
  }

  /** Requests to operations instance `instance` (default the first) as `sub` of `tenantId` (default the seeded admin). */
  ops(sub: string = SEEDED_ADMIN_SUBJECT, tenantId: string = SEEDED_TENANT, extra: Partial<AccessTokenSubject> = {}, instance = 0) {
    const app = this.operations[instance];
    if (!app) throw new Error(`no operations instance ${instance}`);
    return signedRequests(app.http, this.token({ sub, tenantId, ...extra }));
  }
}
