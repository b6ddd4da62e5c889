import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConfigModule } from '@lp/platform/config';
import { WORKFLOW_ENTITIES } from '../store';
import { workflowEngineConfig } from '../workflow-engine.config';
import { ASSIGNEE_DIRECTORY, RpcAssigneeDirectory } from './assignee-directory';
import { DefinitionsController } from './definitions.controller';
import { DefinitionsRepository } from './definitions.repository';
import { DefinitionsService } from './definitions.service';

/** Workflow definitions: drafts, validation, simulation, versions and deployments (docs/definitions.md). */
@Module({
  imports: [TypeOrmModule.forFeature(WORKFLOW_ENTITIES), ConfigModule.forRoot(workflowEngineConfig)],
  controllers: [DefinitionsController],
  providers: [DefinitionsService, DefinitionsRepository, { provide: ASSIGNEE_DIRECTORY, useClass: RpcAssigneeDirectory }],
  exports: [DefinitionsService],
})
export class DefinitionsModule {}
