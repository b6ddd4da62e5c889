import { Module } from '@nestjs/common';
import { ConfigModule } from '@lp/platform/config';
import { operationsConfig } from '../operations.config';
import { DiagnosticsController } from './diagnostics.controller';
import { FleetDiagnosticsService } from './fleet-diagnostics.service';

/** The four fleet-wide reports under /api/operations: governance, adapters, connectors, config. */
@Module({
  imports: [ConfigModule.forRoot(operationsConfig)],
  controllers: [DiagnosticsController],
  providers: [FleetDiagnosticsService],
})
export class DiagnosticsModule {}
