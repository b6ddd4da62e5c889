import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JobDefinitionEntity, JobExecutionEntity } from '../store';

/** Job definitions, the scheduler, the execution audit and the /jobs routes. */
@Module({ imports: [TypeOrmModule.forFeature([JobDefinitionEntity, JobExecutionEntity])] })
export class JobsModule {}
