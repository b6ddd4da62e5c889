import { Module } from '@nestjs/common';
import { PermissionSimulationController } from './permission-simulation.controller';
import { PermissionSimulationService } from './permission-simulation.service';

@Module({
  controllers: [PermissionSimulationController],
  providers: [PermissionSimulationService],
})
export class PermissionSimulationModule {}
