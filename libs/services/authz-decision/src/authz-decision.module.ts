import { Module } from '@nestjs/common';
import { ConfigModule } from '@lp/platform/config';
import { authzDecisionConfig } from './authz-decision.config';
import { DecisionsModule } from './decisions/decisions.module';
import { SimulationModule } from './simulation/simulation.module';

/** Wires authz-decision: its configuration and its features (each folder owns its module). */
@Module({
  imports: [ConfigModule.forRoot(authzDecisionConfig), DecisionsModule, SimulationModule],
})
export class AuthzDecisionModule {}
