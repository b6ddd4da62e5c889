import { Module } from '@nestjs/common';
import { DefinitionsRepository } from '../definitions/definitions.repository';
import { RuntimeModule } from '../runtime/runtime.module';
import { CandidateRefreshService } from './candidate-refresh.service';
import { LegacyImportService } from './legacy-import.service';
import { ManagementController } from './management.controller';
import { ManagementRepository } from './management.repository';
import { ManagementService } from './management.service';

/** Workflow management: legacy import, statistics, deletions, candidate refresh (docs/management.md). */
@Module({
  imports: [RuntimeModule],
  controllers: [ManagementController],
  providers: [ManagementService, LegacyImportService, CandidateRefreshService, ManagementRepository, DefinitionsRepository],
})
export class ManagementModule {}
