import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, DataScope, Page, TrustedCaller } from '@lp/contracts';
import { Authorize, CurrentDataScope } from '@lp/authz-guard';
import { Caller } from '@lp/platform/auth';
import { PageQuery, TimeoutPolicy } from '@lp/platform/http';
import { TaskCountResponse, TaskPage, TaskResponse } from '../runtime/dto/runtime.responses';
import { TaskFactsLoader } from '../runtime/runtime-facts.loaders';
import { RuntimeService } from '../runtime/runtime.service';
import { TaskProgress, TaskProgressResponse } from './task-progress';

const VIEW = { module: 'workflow', resource: 'task', action: AuthorizationAction.View } as const;
const DENIED = ApiForbiddenResponse({ description: 'Authorization.Denied: no `workflow.task.view`, or not the task’s assignee / the instance’s initiator.' });

/**
 * The task center under /api/workflow/tasks (spec §4 "Workflow tasks", docs/runtime.md). Lists are
 * the caller's own tasks, filtered in SQL within the caller's tenant (the todo list and its count
 * also by the DataScope of the caller's permit); the count uses the same query as the todo list, so
 * the badge always equals the list's `totalCount`.
 */
@ApiTags('Workflow-Tasks')
@ApiBearerAuth()
@Controller('api/workflow/tasks')
export class TasksController {
  constructor(
    private readonly runtime: RuntimeService,
    private readonly progressOf: TaskProgress,
  ) {}

  @Get('todo')
  @Authorize(VIEW)
  @ApiOperation({ summary: 'The caller’s Pending tasks, newest first.' })
  @ApiOkResponse({ type: TaskPage })
  @DENIED
  todo(@Caller() caller: TrustedCaller, @CurrentDataScope() scope: DataScope, @Query() page: PageQuery): Promise<Page<TaskResponse>> {
    return this.runtime.todo(caller, scope, page);
  }

  @Get('todo/count')
  @Authorize(VIEW)
  @ApiOperation({ summary: 'How many Pending tasks the caller has: the todo list’s totalCount (same predicate).' })
  @ApiOkResponse({ type: TaskCountResponse })
  @DENIED
  todoCount(@Caller() caller: TrustedCaller, @CurrentDataScope() scope: DataScope): Promise<TaskCountResponse> {
    return this.runtime.todoCount(caller, scope);
  }

  @Get('done')
  @Authorize(VIEW)
  @ApiOperation({ summary: 'The tasks the caller approved or rejected, newest decision first.' })
  @ApiOkResponse({ type: TaskPage })
  @DENIED
  done(@Caller() caller: TrustedCaller, @Query() page: PageQuery): Promise<Page<TaskResponse>> {
    return this.runtime.done(caller, page);
  }

  @Get(':taskId')
  @Authorize({ ...VIEW, facts: TaskFactsLoader })
  @ApiOperation({ summary: 'One task (its assignee, whoever decided it, or the instance’s initiator).' })
  @ApiOkResponse({ type: TaskResponse })
  @ApiNotFoundResponse({ description: 'NotFound: no such task in the caller’s tenant.' })
  @DENIED
  task(@Caller() caller: TrustedCaller, @Param('taskId') taskId: string): Promise<TaskResponse> {
    return this.runtime.task(caller, taskId);
  }

  @Get(':taskId/progress')
  @Authorize({ ...VIEW, facts: TaskFactsLoader })
  @ApiOperation({
    summary:
      'The progress of the task’s instance with its version’s outline, for whoever may read the task (no `workflow.instance.view` or `workflow.definition.view` needed).',
  })
  @ApiOkResponse({ type: TaskProgressResponse })
  @ApiNotFoundResponse({ description: 'NotFound: no such task in the caller’s tenant.' })
  @DENIED
  progress(@Caller() caller: TrustedCaller, @Param('taskId') taskId: string): Promise<TaskProgressResponse> {
    return this.progressOf.of(caller, taskId);
  }

  @Post(':taskId/mark-read')
  @HttpCode(200)
  @Authorize({ ...VIEW, facts: TaskFactsLoader })
  @TimeoutPolicy('StandardCommand')
  @ApiOperation({ summary: 'Mark the task read (assignee only); the first read time is kept.' })
  @ApiOkResponse({ type: TaskResponse })
  @ApiNotFoundResponse({ description: 'NotFound: no such task in the caller’s tenant.' })
  @DENIED
  markRead(@Caller() caller: TrustedCaller, @Param('taskId') taskId: string): Promise<TaskResponse> {
    return this.runtime.markRead(caller, taskId);
  }
}
