import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { FLEET_SERVICE_NAMES } from '@lp/contracts';
import { problem } from '@lp/platform/http';
import { RpcClient, RpcRemoteError, RpcTimeoutError } from '@lp/platform/messaging';
import { JobCatalogSync } from './job-catalog-sync';
import { JobDefinitionRepository } from './job-definition.repository';
import { JobsConfig } from './jobs.config';

const CATALOG_PATTERN = 'service.jobs.catalog';

/** The fleet as operations' RPC client sees it: each service answers its catalog, or fails as scripted, ask by ask. */
class Fleet extends RpcClient {
  readonly asked = new Map<string, number>();

  constructor(private readonly failures: Record<string, (ask: number) => Error | undefined> = {}) {
    super({});
  }

  async send<T>(pattern: string, _data: unknown, options?: { service?: string }): Promise<T> {
    const service = options?.service ?? '';
    const ask = (this.asked.get(service) ?? 0) + 1;
    this.asked.set(service, ask);
    const failure = this.failures[service]?.(ask);
    if (failure) throw failure;
    return [] as T;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

const noChanges = { reconcileCatalog: async () => ({ inserted: [], restored: [], softDeleted: [] }) } as unknown as JobDefinitionRepository;
const timeout = () => new RpcTimeoutError(CATALOG_PATTERN, 50);

function catalogSync(fleet: Fleet, startupWaitMs: number): JobCatalogSync {
  const config = { OPERATIONS_CATALOG_SYNC_MS: 3_600_000, OPERATIONS_CATALOG_TIMEOUT_MS: 50, OPERATIONS_CATALOG_STARTUP_WAIT_MS: startupWaitMs } as JobsConfig;
  return new JobCatalogSync(fleet, noChanges, new SchedulerRegistry(), config);
}

describe('JobCatalogSync', () => {
  let warnings: jest.SpyInstance;
  let sync: JobCatalogSync | undefined;
  beforeEach(() => {
    warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    await sync?.beforeApplicationShutdown();
    jest.restoreAllMocks();
  });

  it('at start, asks a service that is still starting again until it answers, and reconciles it without a warning', async () => {
    // workflow-engine starts last: its first two asks get no answer.
    const fleet = new Fleet({ 'workflow-engine': (ask) => (ask <= 2 ? timeout() : undefined) });
    sync = catalogSync(fleet, 10_000);
    sync.onApplicationBootstrap();
    const round = await sync.syncNow(); // joins the start-up round

    expect(round.map((r) => r.service)).toEqual([...FLEET_SERVICE_NAMES]);
    expect(round.filter((r) => 'skipped' in r)).toEqual([]);
    expect(fleet.asked.get('workflow-engine')).toBe(3);
    expect(warnings).not.toHaveBeenCalled();
  });

  it('at start, skips with one warning a service still silent past OPERATIONS_CATALOG_STARTUP_WAIT_MS', async () => {
    const fleet = new Fleet({ 'webhook-dispatcher': timeout });
    sync = catalogSync(fleet, 600);
    const started = Date.now();
    sync.onApplicationBootstrap();
    const round = await sync.syncNow();

    expect(round.find((r) => r.service === 'webhook-dispatcher')).toEqual({ service: 'webhook-dispatcher', skipped: expect.stringContaining('no answer') });
    expect(fleet.asked.get('webhook-dispatcher')).toBeGreaterThan(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(warnings).toHaveBeenCalledTimes(1);
    expect(warnings.mock.calls[0]?.[0]).toMatch(/^job catalog of webhook-dispatcher not reconciled this round/);
  });

  it('in a later round, skips a silent service after one ask; a refusal is never asked again', async () => {
    const denied = new RpcRemoteError(CATALOG_PATTERN, problem(403, 'Authorization.Denied', 'no'));
    const fleet = new Fleet({ 'case-management': timeout, 'mcp-gateway': () => denied });
    sync = catalogSync(fleet, 10_000);
    const round = await sync.syncNow();

    expect(round.filter((r) => 'skipped' in r).map((r) => r.service)).toEqual(['case-management', 'mcp-gateway']);
    expect([fleet.asked.get('case-management'), fleet.asked.get('mcp-gateway')]).toEqual([1, 1]);
    expect(warnings).toHaveBeenCalledTimes(2);
  });

  it('stops asking at shutdown, without a warning', async () => {
    const fleet = new Fleet({ 'webhook-dispatcher': timeout });
    sync = catalogSync(fleet, 60_000);
    sync.onApplicationBootstrap();
    const round = sync.syncNow();
    await new Promise((resolve) => setImmediate(resolve));
    const stoppedAt = Date.now();
    await sync.beforeApplicationShutdown();
    expect(Date.now() - stoppedAt).toBeLessThan(2_000);
    expect((await round).find((r) => r.service === 'webhook-dispatcher')).toEqual(expect.objectContaining({ skipped: expect.any(String) }));
    expect(warnings).not.toHaveBeenCalled();
  });
});
