import { DynamicModule, Inject, Injectable, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { JobDeclaration, JobRunResult } from '@lp/contracts';
import { JobBinding, JobDispatcher } from './job-dispatcher';
import { JOB_HANDLER_METADATA, JobRun, JobRunContext } from './job-handler';

export const SERVICE_JOB_CATALOG = Symbol('SERVICE_JOB_CATALOG');
const JOBS_SERVICE = Symbol('JOBS_SERVICE');

/**
 * Bindings made in code rather than by `@JobHandler` (a binding built per registered item). Bind
 * in `onModuleInit`: the dispatcher is built at application bootstrap, after every module's init.
 */
@Injectable()
export class JobBindingRegistry {
  private readonly bindings: JobBinding[] = [];
  private sealed = false;

  bind(jobName: string, run: JobRun, boundBy: string): void {
    if (this.sealed) throw new Error(`Job ${jobName} bound by ${boundBy} after the dispatcher was built; bind in onModuleInit`);
    this.bindings.push({ jobName, run, boundBy });
  }

  /** @internal the dispatcher takes them once. */
  seal(): JobBinding[] {
    this.sealed = true;
    return [...this.bindings];
  }
}

/**
 * The service's jobs at run time: its catalog and the dispatcher built from it and every binding
 * (`@JobHandler` methods found on providers, plus `JobBindingRegistry`). Boot fails when the
 * dispatcher refuses the bindings.
 */
@Injectable()
export class ServiceJobs implements OnApplicationBootstrap {
  private readonly logger = new Logger(ServiceJobs.name);
  private dispatcher?: JobDispatcher;

  constructor(
    @Inject(JOBS_SERVICE) readonly service: string,
    @Inject(SERVICE_JOB_CATALOG) readonly catalog: readonly JobDeclaration[],
    private readonly registry: JobBindingRegistry,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    this.dispatcher = new JobDispatcher(this.service, this.catalog, [...this.decoratedBindings(), ...this.registry.seal()]);
    if (this.catalog.length > 0) this.logger.debug(`${this.catalog.length} jobs bound: ${this.catalog.map((j) => j.jobName).join(', ')}`);
  }

  /** Runs one job now (the `service.jobs.run` handler and tests call this). */
  run(context: JobRunContext): Promise<JobRunResult> {
    if (!this.dispatcher) throw new Error(`Jobs of ${this.service} are not bound yet (the application has not finished booting)`);
    return this.dispatcher.run(context);
  }

  private decoratedBindings(): JobBinding[] {
    const found: JobBinding[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const handler = (prototype as Record<string, unknown>)[method];
        if (typeof handler !== 'function') continue;
        const jobName = this.reflector.get<string | undefined>(JOB_HANDLER_METADATA, handler as () => unknown);
        if (!jobName) continue;
        const bound = (handler as (context: JobRunContext) => Promise<JobRunResult | string | void>).bind(instance);
        found.push({ jobName, run: bound, boundBy: `${instance.constructor.name}.${method}` });
      }
    }
    return found;
  }
}

/** The service's job catalog, bindings and dispatcher, for every service app (ServiceHostModule). */
@Module({})
export class ServiceJobsModule {
  static forService(service: string, catalog: readonly JobDeclaration[]): DynamicModule {
    return {
      module: ServiceJobsModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [{ provide: JOBS_SERVICE, useValue: service }, { provide: SERVICE_JOB_CATALOG, useValue: catalog }, JobBindingRegistry, ServiceJobs],
      exports: [JobBindingRegistry, ServiceJobs, SERVICE_JOB_CATALOG],
    };
  }
}
