import { Injectable, Module } from '@nestjs/common';
import { declareJob } from './job-declaration';
import { assertJobClosure, declaredJobHandlers } from './job-closure';
import { JobDispatchClosureError } from './job-dispatcher';
import { JobHandler } from './job-handler';

const sweep = declareJob({ service: 'svc', name: 'sweep', description: 'sweeps', moduleName: 'InnerModule', schedule: { intervalSeconds: 60 } });
const purge = declareJob({ service: 'svc', name: 'purge', description: 'purges', moduleName: 'OuterModule', schedule: null });

@Injectable()
class Sweeper {
  @JobHandler('svc.sweep')
  async sweep(): Promise<string> {
    return 'swept';
  }
  notAJob(): void {
    return undefined;
  }
}

@Injectable()
class Purger {
  @JobHandler('svc.purge')
  async purge(): Promise<void> {
    return undefined;
  }
}

@Module({ providers: [Sweeper] })
class InnerModule {}

@Module({})
class OuterModule {
  static forRoot() {
    return { module: OuterModule, imports: [InnerModule], providers: [{ provide: 'PURGER', useClass: Purger }] };
  }
}

describe('declaredJobHandlers and assertJobClosure', () => {
  it('finds the handlers of class providers through static and dynamic imports, once each', () => {
    expect(declaredJobHandlers([OuterModule.forRoot(), InnerModule])).toEqual([
      { jobName: 'svc.purge', boundBy: 'Purger.purge' },
      { jobName: 'svc.sweep', boundBy: 'Sweeper.sweep' },
    ]);
  });

  it('accepts a closed catalog and names what breaks one', () => {
    const handlers = declaredJobHandlers([OuterModule.forRoot()]);
    expect(assertJobClosure('svc', [sweep, purge], handlers).has('svc.sweep')).toBe(true);
    expect(() => assertJobClosure('svc', [sweep], handlers)).toThrow(JobDispatchClosureError);
    expect(() => assertJobClosure('svc', [sweep], handlers)).toThrow(/svc\.purge is bound by Purger\.purge but absent from the catalog/);
  });
});
