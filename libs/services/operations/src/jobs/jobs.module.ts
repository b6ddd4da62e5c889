import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConfigModule } from '@lp/platform/config';
import { JobDefinitionEntity, JobExecutionEntity } from '../store';
import { JobCatalogSync } from './job-catalog-sync';
import { JobDefinitionRepository } from './job-definition.repository';
import { JobExecutionAudit } from './job-execution-audit';
import { JobExecutionRetention } from './job-execution-retention';
import { JobRunner } from './job-runner';
import { JobScheduler } from './job-scheduler';
import { JobsController } from './jobs.controller';
import { jobsConfig } from './jobs.config';
import { JobsService } from './jobs.service';

/** Job definitions, the catalog sync, the scheduler, the execution audit and the /jobs routes. */
@Module({
  imports: [TypeOrmModule.forFeature([JobDefinitionEntity, JobExecutionEntity]), ConfigModule.forRoot(jobsConfig), ScheduleModule.forRoot()],
  controllers: [JobsController],
  providers: [JobDefinitionRepository, JobExecutionAudit, JobRunner, JobCatalogSync, JobScheduler, JobsService, JobExecutionRetention],
  exports: [JobCatalogSync, JobScheduler],
})
export class JobsModule {}
