import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthzDecisionConfig, authzDecisionConfig } from '../authz-decision.config';
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
      inject: [DataSource, authzDecisionConfig.token],
      // The same feature setting as real decisions: a simulation must answer what the service would.
      useFactory: (ds: DataSource, config: AuthzDecisionConfig) =>
        new PolicySimulator(ds, () => new SqlPolicyFactsReader(ds), new SqlSimulationCatalog(ds), {
          featureEnabledVerdict: config.AUTHZ_FEATURE_ENABLED_VERDICT,
        }),
    },
  ],
})
export class SimulationModule {}
