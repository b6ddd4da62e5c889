import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ASSIGNEE_DIRECTORY, RpcAssigneeDirectory } from '../definitions/assignee-directory';
import { WORKFLOW_ENTITIES } from '../store';
import { TaskProgress } from '../tasks/task-progress';
import { TasksController } from '../tasks/tasks.controller';
import { InstanceFactsLoader, TaskFactsLoader } from './runtime-facts.loaders';
import { RuntimeController } from './runtime.controller';
import { RuntimeRepository } from './runtime.repository';
import { RuntimeService } from './runtime.service';
import { RuntimeRpcController } from './runtime.rpc-controller';

/** Instances and tasks: the runtime routes and the task center (docs/runtime.md). */
@Module({
  imports: [TypeOrmModule.forFeature(WORKFLOW_ENTITIES)],
  controllers: [RuntimeController, TasksController, RuntimeRpcController],
  providers: [
    RuntimeService,
    RuntimeRepository,
    TaskProgress,
    TaskFactsLoader,
    InstanceFactsLoader,
    { provide: ASSIGNEE_DIRECTORY, useClass: RpcAssigneeDirectory },
  ],
  exports: [RuntimeService, RuntimeRepository, ASSIGNEE_DIRECTORY],
})
export class RuntimeModule {}
