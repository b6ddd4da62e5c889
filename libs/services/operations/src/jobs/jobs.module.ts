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
import { JobsRpcController } from './jobs.rpc-controller';
import { jobsConfig } from './jobs.config';
import { JobsService } from './jobs.service';

/** Job definitions, the catalog sync, the scheduler, the execution audit, the /jobs routes and their RPC twins. */
@Module({
  imports: [TypeOrmModule.forFeature([JobDefinitionEntity, JobExecutionEntity]), ConfigModule.forRoot(jobsConfig), ScheduleModule.forRoot()],
  controllers: [JobsController, JobsRpcController],
  providers: [JobDefinitionRepository, JobExecutionAudit, JobRunner, JobCatalogSync, JobScheduler, JobsService, JobExecutionRetention],
  exports: [JobCatalogSync, JobScheduler],
})
export class JobsModule {}
