import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SqlPolicyFactsReader } from '../policy-facts';
import { PolicySimulator } from './policy-simulator';
import { SimulationRpcController } from './simulation.rpc-controller';
import { SqlSimulationCatalog } from './sql-simulation-catalog';

/**
 * Permission simulation: the engine over the stored facts (uncached SQL reads: a simulation must see
 * the current truth, and its overlay must never reach a shared cache) with an overlay on top.
 */
@Module({
  controllers: [SimulationRpcController],
  providers: [
    {
      provide: PolicySimulator,
      inject: [DataSource],
      useFactory: (ds: DataSource) => new PolicySimulator(ds, () => new SqlPolicyFactsReader(ds), new SqlSimulationCatalog(ds)),
    },
  ],
})
export class SimulationModule {}
