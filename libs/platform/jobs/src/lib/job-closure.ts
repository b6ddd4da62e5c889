import { DynamicModule, ForwardReference, Provider, Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { JobDeclaration } from '@lp/contracts';
import { JobDispatcher } from './job-dispatcher';
import { JOB_HANDLER_METADATA } from './job-handler';

type ModuleRef = Type | DynamicModule | Promise<DynamicModule> | ForwardReference;

/** A `@JobHandler` found on a class provider of a module tree: the JobName and `Class.method`. */
export interface DeclaredJobHandler {
  jobName: string;
  boundBy: string;
}

/**
 * The `@JobHandler` methods of every class provider reachable from `modules` (their own providers
 * and those of the modules they import, static and dynamic), read from metadata without booting.
 * What `ServiceJobs` finds at boot, minus bindings made in code (`JobBindingRegistry`).
 */
export function declaredJobHandlers(modules: readonly ModuleRef[]): DeclaredJobHandler[] {
  const seenModules = new Set<unknown>();
  const seenClasses = new Set<Type>();
  const found: DeclaredJobHandler[] = [];
  const visit = (ref: ModuleRef): void => {
    if (ref instanceof Promise || 'forwardRef' in ref || seenModules.has(ref)) return;
    seenModules.add(ref);
    const type: Type = 'module' in ref ? ref.module : ref;
    const dynamic = 'module' in ref ? ref : undefined;
    const imports: ModuleRef[] = [...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, type) as ModuleRef[] | undefined) ?? []), ...(dynamic?.imports ?? [])];
    const providers: Provider[] = [...((Reflect.getMetadata(MODULE_METADATA.PROVIDERS, type) as Provider[] | undefined) ?? []), ...(dynamic?.providers ?? [])];
    for (const provider of providers) {
      const cls = typeof provider === 'function' ? provider : 'useClass' in provider ? provider.useClass : undefined;
      if (cls && !seenClasses.has(cls)) {
        seenClasses.add(cls);
        found.push(...handlersOf(cls));
      }
    }
    for (const imported of imports) if (imported) visit(imported);
  };
  for (const ref of modules) visit(ref);
  return found;
}

function handlersOf(cls: Type): DeclaredJobHandler[] {
  const prototype = cls.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype).flatMap((method) => {
    const handler = Object.getOwnPropertyDescriptor(prototype, method)?.value as unknown;
    if (typeof handler !== 'function') return [];
    const jobName = Reflect.getMetadata(JOB_HANDLER_METADATA, handler) as string | undefined;
    return jobName ? [{ jobName, boundBy: `${cls.name}.${method}` }] : [];
  });
}

/**
 * Builds the dispatcher a service would build at boot from its catalog and its declared handlers
 * (the runs are never called): throws `JobDispatchClosureError` naming every offender. For a unit
 * spec per service, so a broken closure fails the build before it fails a boot.
 */
export function assertJobClosure(service: string, catalog: readonly JobDeclaration[], handlers: readonly DeclaredJobHandler[]): JobDispatcher {
  return new JobDispatcher(
    service,
    catalog,
    handlers.map((h) => ({ ...h, run: () => Promise.reject(new Error(`${h.boundBy} is not run by a closure check`)) })),
  );
}
