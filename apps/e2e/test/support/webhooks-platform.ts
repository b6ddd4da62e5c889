import { SEEDED_ADMIN_SUBJECT, SEEDED_TENANT } from '@lp/contracts';
import { createServiceApp, ServiceApp } from '@lp/platform/runtime';
import { webhookDispatcherService } from '@lp/service/webhook-dispatcher';
import { PolicyTestPlatform, signedRequests } from './policy-platform';

/**
 * webhook-dispatcher (one or more instances, replicas on one database and queue) with
 * policy-management and authz-decision behind its guard, on PostgreSQL, RabbitMQ and Redis, in a
 * database, queue prefix and key prefix of its own. Dispatchers can be stopped and started again
 * mid-test (a restart between two attempts of a delivery).
 */
export class WebhooksTestPlatform extends PolicyTestPlatform {
  readonly dispatchers: ServiceApp[] = [];

  override async start(): Promise<this> {
    await super.start();
    await this.startDispatcher();
    return this;
  }

  override async stop(): Promise<void> {
    for (const { app } of [...this.dispatchers].reverse()) await app.close();
    this.dispatchers.length = 0;
    await super.stop();
  }

  async startDispatcher(): Promise<ServiceApp> {
    const dispatcher = await createServiceApp(webhookDispatcherService, this.runtime);
    this.dispatchers.push(dispatcher);
    return dispatcher;
  }

  async stopDispatcher(dispatcher: ServiceApp): Promise<void> {
    await dispatcher.app.close();
    this.dispatchers.splice(this.dispatchers.indexOf(dispatcher), 1);
  }

  /** The first running dispatcher. */
  get dispatcher(): ServiceApp {
    const first = this.dispatchers[0];
    if (!first) throw new Error('no webhook-dispatcher is running');
    return first;
  }

  /** Requests to the first dispatcher as `sub` of `tenantId` (default the seeded admin). */
  hooks(sub: string = SEEDED_ADMIN_SUBJECT, tenantId: string = SEEDED_TENANT) {
    return signedRequests(this.dispatcher.http, this.token({ sub, tenantId }));
  }
}
