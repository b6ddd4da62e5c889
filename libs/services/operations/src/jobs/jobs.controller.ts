import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, TrustedCaller } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { Caller } from '@lp/platform/auth';
import { PageQuery } from '@lp/platform/http';
import { JobExecutionPage, ManualRunResponse } from './dto/job-execution.response';
import { JobLastRun, JobScheduleEntryResponse, JobSchedulePage } from './dto/job-schedule-entry.response';
import { ListJobsQuery } from './dto/list-jobs.query';
import { UpdateJobScheduleDto } from './dto/update-job-schedule.dto';
import { JobsService } from './jobs.service';

const view = { module: 'operations', resource: 'jobs', action: AuthorizationAction.View } as const;
const manage = { module: 'operations', resource: 'jobs', action: AuthorizationAction.Manage } as const;

/** Background-job control (specs/operations.md §3, §4). See docs/jobs.md. */
@ApiTags('jobs')
@ApiBearerAuth()
// `lastRun` reaches JobLastRun through `anyOf` (see JobScheduleEntryResponse), which does not register it.
@ApiExtraModels(JobLastRun)
@Controller('api/operations/jobs')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Get()
  @Authorize(view)
  @ApiOkResponse({ type: JobSchedulePage, description: "The fleet's jobs, sorted by JobName, with their effective schedule; the filters must all hold." })
  list(@Query() query: ListJobsQuery): Promise<JobSchedulePage> {
    return this.jobs.page(query);
  }

  @Get(':jobName')
  @Authorize(view)
  @ApiOkResponse({ type: JobScheduleEntryResponse, description: 'One job as the list shows it; 404 NotFound for an unknown or soft-deleted JobName.' })
  get(@Param('jobName') jobName: string): Promise<JobScheduleEntryResponse> {
    return this.jobs.get(jobName);
  }

  @Put(':jobName')
  @Authorize(manage)
  @ApiOkResponse({ type: JobScheduleEntryResponse })
  replaceSchedule(@Param('jobName') jobName: string, @Body() body: UpdateJobScheduleDto): Promise<JobScheduleEntryResponse> {
    return this.jobs.replaceSchedule(jobName, body);
  }

  @Post(':jobName/stop')
  @HttpCode(200)
  @Authorize(manage)
  @ApiOkResponse({ type: JobScheduleEntryResponse, description: 'Automatic scheduling off; cron and interval are kept.' })
  stop(@Param('jobName') jobName: string): Promise<JobScheduleEntryResponse> {
    return this.jobs.setEnabled(jobName, false);
  }

  @Post(':jobName/start')
  @HttpCode(200)
  @Authorize(manage)
  @ApiOkResponse({ type: JobScheduleEntryResponse, description: 'Automatic scheduling on; needs a schedule (422 ScheduleRequired).' })
  start(@Param('jobName') jobName: string): Promise<JobScheduleEntryResponse> {
    return this.jobs.setEnabled(jobName, true);
  }

  @Post(':jobName/run')
  @HttpCode(200)
  @Authorize(manage)
  @ApiOkResponse({ type: ManualRunResponse, description: "The owner's result (a business failure is `status: failed` with its code) and the execution row." })
  run(@Param('jobName') jobName: string, @Caller() caller: TrustedCaller): Promise<ManualRunResponse> {
    return this.jobs.run(jobName, caller);
  }

  @Get(':jobName/executions')
  @Authorize(view)
  @ApiOkResponse({ type: JobExecutionPage, description: 'Newest first.' })
  executions(@Param('jobName') jobName: string, @Query() query: PageQuery): Promise<JobExecutionPage> {
    return this.jobs.executions(jobName, query.pageIndex, query.pageSize);
  }
}
