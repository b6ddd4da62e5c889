import type { Module as NestModule } from '@nestjs/core/injector/module';
import type { ModulesContainer } from '@nestjs/core';
import type { GovernanceModule, GovernanceSnapshot } from '@lp/contracts';
import { findModuleCycles, mermaidModuleGraph } from './module-graph';

/** The part of Nest's container that keeps what `forRoot()`-style dynamic modules declared. */
interface DynamicMetadataSource {
  getDynamicMetadataByToken(token: string, key: 'imports'): unknown[] | undefined;
}

function isForwardReference(value: unknown): value is { forwardRef: () => unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { forwardRef?: unknown }).forwardRef === 'function';
}

/** The class a declared import names: a module class, or the `module` of a dynamic module. */
function importedName(entry: unknown): string | undefined {
  const target = isForwardReference(entry) ? entry.forwardRef() : entry;
  if (typeof target === 'function') return target.name;
  if (typeof target === 'object' && target !== null) {
    const module = (target as { module?: unknown }).module;
    if (typeof module === 'function') return module.name;
    // A promised dynamic module was awaited by the scanner; its name is not knowable here.
    if (typeof (target as { then?: unknown }).then === 'function') return undefined;
  }
  return undefined;
}

/**
 * What the module itself declares: `@Module({ imports })` plus the `imports` of the dynamic module
 * it was registered as. Nest's own `Module.imports` also holds every global module (bound to every
 * module after the scan), which would make any two global modules a false cycle. The dynamic part
 * lives only in the container Nest keeps on each module, not on its public surface.
 */
function declaredImports(module: NestModule): unknown[] {
  const declared: unknown = typeof module.metatype === 'function' ? Reflect.getMetadata('imports', module.metatype) : undefined;
  const container = (module as unknown as { container?: Partial<DynamicMetadataSource> }).container;
  const dynamic = container?.getDynamicMetadataByToken?.(module.token, 'imports');
  return [...(Array.isArray(declared) ? declared : []), ...(Array.isArray(dynamic) ? dynamic : [])];
}

/**
 * The governance report of this process (specs/operations.md §2): every module Nest registered with
 * its direct (declared) imports, the declared imports that name nothing, the cycles and the Mermaid
 * graph. A dynamic module registered more than once (`ConfigModule.forRoot` per declaration) is one
 * module by name, with the union of its imports: the report is about code modules, not instances.
 */
export function buildGovernanceSnapshot(container: ModulesContainer): GovernanceSnapshot {
  const imports = new Map<string, Set<string>>();
  const missingDependencies = new Set<string>();
  for (const module of container.values()) {
    const name = module.metatype?.name || module.name;
    const targets = imports.get(name) ?? new Set<string>();
    imports.set(name, targets);
    declaredImports(module).forEach((entry, position) => {
      const target = importedName(entry);
      if (target) targets.add(target);
      else if (entry === undefined || entry === null || (isForwardReference(entry) && entry.forwardRef() == null)) {
        missingDependencies.add(`${name} imports an undefined module at position ${position} (a circular file import or a missing export)`);
      }
    });
  }
  const modules: GovernanceModule[] = [...imports.entries()]
    .map(([name, targets]) => ({ name, imports: [...targets].sort() }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return fromModules(modules, [...missingDependencies].sort());
}

/** The report of an already projected module list (the part worth testing without Nest). */
export function fromModules(modules: GovernanceModule[], missingDependencies: string[] = []): GovernanceSnapshot {
  const cycles = findModuleCycles(modules);
  return { modules, missingDependencies, hasCircularDependencies: cycles.length > 0, cycles, graph: mermaidModuleGraph(modules) };
}
