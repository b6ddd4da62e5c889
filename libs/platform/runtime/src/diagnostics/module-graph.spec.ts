import { Global, Module, forwardRef } from '@nestjs/common';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { buildGovernanceSnapshot, fromModules } from './governance-snapshot';
import { findModuleCycles, mermaidModuleGraph } from './module-graph';

describe('findModuleCycles', () => {
  it('finds every strongly connected component of two or more modules, and self-imports', () => {
    const cycles = findModuleCycles([
      { name: 'App', imports: ['A', 'Solo'] },
      { name: 'A', imports: ['B'] },
      { name: 'B', imports: ['C'] },
      { name: 'C', imports: ['A', 'D'] },
      { name: 'D', imports: ['E'] },
      { name: 'E', imports: ['D'] },
      { name: 'Self', imports: ['Self'] },
      { name: 'Solo', imports: ['External'] },
    ]);
    expect(cycles).toEqual([['A', 'B', 'C'], ['D', 'E'], ['Self']]);
  });

  it('finds none in a diamond (shared dependencies are not cycles)', () => {
    expect(
      findModuleCycles([
        { name: 'Top', imports: ['Left', 'Right'] },
        { name: 'Left', imports: ['Bottom'] },
        { name: 'Right', imports: ['Bottom'] },
        { name: 'Bottom', imports: [] },
      ]),
    ).toEqual([]);
  });

  it('walks a long chain without recursion', () => {
    const modules = Array.from({ length: 20_000 }, (_, i) => ({ name: `M${i}`, imports: i + 1 < 20_000 ? [`M${i + 1}`] : ['M0'] }));
    const [cycle] = findModuleCycles(modules);
    expect(cycle).toHaveLength(20_000);
  });
});

describe('mermaidModuleGraph', () => {
  it('writes one node per module and one arrow per import, with safe ids', () => {
    expect(
      mermaidModuleGraph([
        { name: 'App', imports: ['Config-Module'] },
        { name: 'Config-Module', imports: [] },
      ]),
    ).toBe(['graph TD', '  App["App"]', '  Config_Module["Config-Module"]', '  App --> Config_Module'].join('\n'));
  });
});

describe('fromModules', () => {
  it('answers the release gate: a cycle is reported both as a flag and by its members', () => {
    const report = fromModules([
      { name: 'A', imports: ['B'] },
      { name: 'B', imports: ['A'] },
    ]);
    expect(report).toMatchObject({ hasCircularDependencies: true, cycles: [['A', 'B']], missingDependencies: [] });
    expect(report.graph).toContain('A --> B');
    expect(report.graph).toContain('B --> A');
  });
});

// A deliberately cyclic Nest module graph (forwardRef lets Nest boot it).
@Module({ imports: [forwardRef(() => OrdersModule)] })
class BillingModule {}
@Module({ imports: [forwardRef(() => BillingModule)] })
class OrdersModule {}
@Module({})
class SharedModule {}
@Module({ imports: [OrdersModule, SharedModule] })
class CyclicAppModule {}
// Nest binds every global module into every module's imports; two of them must not read as a cycle.
@Global()
@Module({})
class FirstGlobalModule {}
@Global()
@Module({})
class SecondGlobalModule {}
@Module({ imports: [SharedModule, FirstGlobalModule, SecondGlobalModule] })
class AcyclicAppModule {}

describe('buildGovernanceSnapshot on a real Nest container', () => {
  it('reports the direct imports and the Billing ⇄ Orders cycle', async () => {
    const app = await NestFactory.createApplicationContext(CyclicAppModule, { logger: false });
    const report = buildGovernanceSnapshot(app.get(ModulesContainer));
    await app.close();
    expect(report.modules.find((m) => m.name === 'CyclicAppModule')?.imports).toEqual(['OrdersModule', 'SharedModule']);
    expect(report.modules.find((m) => m.name === 'BillingModule')?.imports).toEqual(['OrdersModule']);
    expect(report.hasCircularDependencies).toBe(true);
    expect(report.cycles).toEqual([['BillingModule', 'OrdersModule']]);
    expect(report.graph).toContain('BillingModule --> OrdersModule');
  });

  it('reports no cycle for an acyclic graph, global modules included', async () => {
    const app = await NestFactory.createApplicationContext(AcyclicAppModule, { logger: false });
    const report = buildGovernanceSnapshot(app.get(ModulesContainer));
    await app.close();
    expect(report.hasCircularDependencies).toBe(false);
    expect(report.cycles).toEqual([]);
    expect(report.missingDependencies).toEqual([]);
  });

  it('lists an import that names nothing as a missing dependency', () => {
    @Module({ imports: [SharedModule] })
    class BrokenModule {}
    // What a circular file import leaves behind: the imported class is still undefined.
    Reflect.defineMetadata('imports', [SharedModule, undefined], BrokenModule);
    const container = new ModulesContainer();
    container.set('broken', { metatype: BrokenModule, name: 'BrokenModule', token: 'broken', imports: new Set() } as never);
    expect(buildGovernanceSnapshot(container).missingDependencies).toEqual([
      'BrokenModule imports an undefined module at position 1 (a circular file import or a missing export)',
    ]);
  });
});
