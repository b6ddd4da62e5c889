import { Controller, Get, Inject, Logger, Module, DynamicModule } from '@nestjs/common';
import { DomainError } from '@lp/contracts';
import { Public } from '@lp/platform/auth';
import { ReadinessCheck } from '@lp/platform/observability';
import { ReadinessTransitions } from './readiness-transitions';
import { HealthCheck, HealthCheckService, HealthIndicatorResult, HealthIndicatorService, TerminusModule } from '@nestjs/terminus';

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<void>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Liveness answers for the process only (a restart would not fix a database outage);
 * readiness asks every dependency, so Kubernetes stops routing to an instance that cannot serve.
 */
@Public()
@Controller('health')
export class HealthController {
  private readonly logger = new Logger('Readiness');
  private readonly transitions = new ReadinessTransitions();

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
  ) {}

  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([async () => this.indicators.check('process').up({ pid: process.pid })]);
  }

  @Get('ready')
  @HealthCheck()
  async ready() {
    const degraded: string[] = [];
    try {
      const ready = await this.health.check(
        this.checks.map((c) => async (): Promise<HealthIndicatorResult> => {
          const indicator = this.indicators.check(c.name);
          try {
            await withTimeout(c.check(), CHECK_TIMEOUT_MS);
            return indicator.up();
          } catch (error) {
            // The message names the dependency state only; no connection strings reach the client.
            const message = error instanceof Error ? (error.message.split('\n')[0] ?? '').slice(0, 200) : 'down';
            if (c.critical === false) {
              degraded.push(c.name);
              return indicator.up({ degraded: true, message });
            }
            return indicator.down({ message });
          }
        }),
      );
      this.report([], degraded);
      return ready;
    } catch (error) {
      // Terminus throws a 503 with its result; surface it as a problem naming what is down.
      const result = (error as { response?: { error?: Record<string, { message?: string }> } }).response;
      const down = Object.fromEntries(Object.entries(result?.error ?? {}).map(([name, v]) => [name, [v.message ?? 'down']]));
      this.report(Object.keys(down), degraded);
      throw new DomainError('ServiceUnavailable', 503, `Not ready: ${Object.keys(down).join(', ') || 'unknown'} unavailable.`, down);
    }
  }

  private report(down: string[], degraded: string[]): void {
    const line = this.transitions.observe(down, degraded);
    if (line) this.logger.log(line);
  }
}

@Module({})
export class HealthModule {
  static forRoot(provider: { useFactory: (...deps: never[]) => ReadinessCheck[]; inject?: unknown[] }): DynamicModule {
    return {
      module: HealthModule,
      imports: [TerminusModule.forRoot({ logger: false, errorLogStyle: 'json' })],
      controllers: [HealthController],
      providers: [{ provide: READINESS_CHECKS, useFactory: provider.useFactory, inject: (provider.inject ?? []) as never[] }],
    };
  }
}
