import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { TrustedCaller } from '@lp/contracts';
import { ProgressResponse } from '../runtime/dto/runtime.responses';
import { RuntimeService } from '../runtime/runtime.service';
import { DefinitionOutline, outlineOf } from './definition-outline';

export class TaskProgressResponse extends ProgressResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The version’s outline: name, description, declared variables, and the nodes with their branches, names, modes and allowed operations, branch conditions (no assignee rules, recipients or timeouts).',
  })
  definition!: DefinitionOutline;
  @ApiProperty({ description: 'The version number the instance runs on.' }) definitionVersion!: number;
}

/**
 * `GET /tasks/{taskId}/progress`: the progress of the instance a task belongs to, for whoever may
 * read the task (its assignee, delegator, decider, or the instance's initiator: `RuntimeService.task`),
 * with the version's outline so the graph can be drawn. The instance route needs
 * `workflow.instance.view`, which an approver seldom holds.
 */
@Injectable()
export class TaskProgress {
  constructor(
    private readonly runtime: RuntimeService,
    private readonly dataSource: DataSource,
  ) {}

  async of(caller: TrustedCaller, taskId: string): Promise<TaskProgressResponse> {
    const task = await this.runtime.task(caller, taskId);
    const progress = await this.runtime.progress(caller, task.instanceId);
    const graph = await this.runtime.graphOfVersion(this.dataSource.manager, progress.instance.definitionId);
    return { ...progress, definition: outlineOf(graph.definition), definitionVersion: task.definitionVersion ?? 0 };
  }
}
