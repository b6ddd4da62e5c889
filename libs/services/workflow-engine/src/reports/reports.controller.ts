import { applyDecorators, Body, Controller, HttpCode, Post, QueryMethod, Type } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiBody, ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { AuthorizationAction, TrustedCaller } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { Caller } from '@lp/platform/auth';
import { SchemaValidationPipe, USER_POLICY } from '@lp/platform/http';
import { WritesNothing } from '../runtime-feature/workflow-runtime.guard';
import {
  ListReportQuery,
  ListReportQueryDto,
  listReportQuerySchema,
  TrendReportQuery,
  TrendReportQueryDto,
  trendReportQuerySchema,
} from './dto/report-query.dto';
import {
  ApproversReportResponse,
  BottlenecksReportResponse,
  DeploymentsReportResponse,
  InstancesReportResponse,
  RejectsReportResponse,
  TaskDurationReportResponse,
  TrendsReportResponse,
} from './dto/report.responses';
import { ReportsService } from './reports.service';

const VIEW = { module: 'workflow', resource: 'report', action: AuthorizationAction.View } as const;

interface ReportDoc {
  question: string;
  response: Type<unknown>;
  body: Type<unknown>;
}

const REPORTS = {
  instances: { question: 'How many instances were started in the period, by definition, and in which status are they now?', response: InstancesReportResponse },
  'task-duration': {
    question: 'How long did tasks decided in the period take from opening to decision (average, p50, p95, max seconds), by definition and node?',
    response: TaskDurationReportResponse,
  },
  approvers: {
    question: 'Who decided tasks in the period: how many, approved, rejected, and the average decision time.',
    response: ApproversReportResponse,
  },
  bottlenecks: {
    question: 'Where does work wait: Pending tasks now by node (count, oldest, waiting times) beside the node’s average decision time in the period.',
    response: BottlenecksReportResponse,
  },
  rejects: {
    question: 'Rejection votes decided in the period by node: where the flow went next and the most frequent comments.',
    response: RejectsReportResponse,
  },
  trends: {
    question: 'Per hour, day, week or month of the period: instances started, completed, and the average duration of those completed.',
    response: TrendsReportResponse,
  },
  deployments: { question: 'Publishes, grayscale switches and rollbacks in the period, by definition key.', response: DeploymentsReportResponse },
} as const;
type ReportName = keyof typeof REPORTS;

/**
 * One report's route in one of its two forms (spec §4 "Workflow reports"): `QUERY /reports/<name>`,
 * or the fallback `POST /reports/<name>/_query` for clients and proxies that cannot send QUERY. The
 * query is the JSON body of both; the handlers of both forms call the same service method.
 */
function ReportRoute(form: 'QUERY' | 'POST', name: ReportName): MethodDecorator {
  const doc: ReportDoc = { ...REPORTS[name], body: name === 'trends' ? TrendReportQueryDto : ListReportQueryDto };
  const other =
    form === 'QUERY'
      ? `the fallback \`POST /api/workflow/reports/${name}/_query\``
      : `\`QUERY /api/workflow/reports/${name}\` (RFC 9110 safe method with a body)`;
  return applyDecorators(
    form === 'QUERY' ? QueryMethod(name) : Post(`${name}/_query`),
    // The fallback is a POST only in form: the workflow.runtime gate is for writes.
    ...(form === 'POST' ? [WritesNothing('a report reads only; POST is the fallback form of QUERY')] : []),
    HttpCode(200),
    Authorize(VIEW),
    ApiOperation({
      summary: doc.question,
      description: `The query is the JSON body; the same report answers ${other}. Reads the caller's tenant only. See docs/reports.md.`,
    }),
    ApiBody({ type: doc.body, required: name === 'trends' }),
    ApiOkResponse({ type: doc.response }),
    ApiBadRequestResponse({
      description:
        'Validation.Failed (unknown field, bad DefinitionKey or Limit), Workflow.Report.PeriodInvalid (From/To unparseable or From later than To; trends: missing), Workflow.Report.PeriodTooLong (over 366 days; Hourly trends over 31), Workflow.Report.TenantNotAllowed (a TenantId other than the caller’s).',
    }),
    ApiForbiddenResponse({ description: 'Authorization.Denied: no `workflow.report.view`.' }),
  );
}

const LIST = new SchemaValidationPipe(listReportQuerySchema);
const TREND = new SchemaValidationPipe(trendReportQuerySchema);

/**
 * The workflow reports under /api/workflow/reports (docs/reports.md). Reads: not limited by
 * `userPolicy` (a write limit), not gated by `workflow.runtime`, whichever form the client uses.
 */
@ApiTags('Workflow-Reports')
@ApiBearerAuth()
@SkipThrottle({ [USER_POLICY]: true })
@Controller('api/workflow/reports')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @ReportRoute('QUERY', 'instances')
  instances(@Caller() caller: TrustedCaller, @Body(LIST) query: ListReportQuery): Promise<InstancesReportResponse> {
    return this.reports.instances(caller, query);
  }

  @ReportRoute('POST', 'instances')
  instancesFallback(@Caller() caller: TrustedCaller, @Body(LIST) query: ListReportQuery): Promise<InstancesReportResponse> {
    return this.reports.instances(caller, query);
  }

  @ReportRoute('QUERY', 'task-duration')
  taskDuration(@Caller() caller: TrustedCaller, @Body(LIST) query: ListReportQuery): Promise<TaskDurationReportResponse> {
    return this.reports.taskDuration(caller, query);
  }

  @ReportRoute('POST', 'task-duration')
  taskDurationFallback(@Caller() caller: TrustedCaller, @Body(LIST) query: ListReportQuery): Promise<TaskDurationReportResponse> {
    return this.reports.taskDuration(caller, query);
  }

  @ReportRoute('QUERY', 'approvers')
  approvers(@Caller() caller: TrustedCaller, @Body(LIST) query: ListReportQuery): Promise<ApproversReportResponse> {
    return this.reports.approvers(caller, query);
  }

  @ReportRoute('POST', 'approvers')
  approversFallback(@Caller() caller: TrustedCaller, @Body(LIST) query: ListReportQuery): Promise<ApproversReportResponse> {
    return this.reports.approvers(caller, query);
  }

  @ReportRoute('QUERY', 'bottlenecks')
  bottlenecks(@Caller() caller: TrustedCaller, @Body(LIST) query: ListReportQuery): Promise<BottlenecksReportResponse> {
    return this.reports.bottlenecks(caller, query);
  }

  @ReportRoute('POST', 'bottlenecks')
  bottlenecksFallback(@Caller() caller: TrustedCaller, @Body(LIST) query: ListReportQuery): Promise<BottlenecksReportResponse> {
    return this.reports.bottlenecks(caller, query);
  }

  @ReportRoute('QUERY', 'rejects')
  rejects(@Caller() caller: TrustedCaller, @Body(LIST) query: ListReportQuery): Promise<RejectsReportResponse> {
    return this.reports.rejects(caller, query);
  }

  @ReportRoute('POST', 'rejects')
  rejectsFallback(@Caller() caller: TrustedCaller, @Body(LIST) query: ListReportQuery): Promise<RejectsReportResponse> {
    return this.reports.rejects(caller, query);
  }

  @ReportRoute('QUERY', 'trends')
  trends(@Caller() caller: TrustedCaller, @Body(TREND) query: TrendReportQuery): Promise<TrendsReportResponse> {
    return this.reports.trends(caller, query);
  }

  @ReportRoute('POST', 'trends')
  trendsFallback(@Caller() caller: TrustedCaller, @Body(TREND) query: TrendReportQuery): Promise<TrendsReportResponse> {
    return this.reports.trends(caller, query);
  }

  @ReportRoute('QUERY', 'deployments')
  deployments(@Caller() caller: TrustedCaller, @Body(LIST) query: ListReportQuery): Promise<DeploymentsReportResponse> {
    return this.reports.deployments(caller, query);
  }

  @ReportRoute('POST', 'deployments')
  deploymentsFallback(@Caller() caller: TrustedCaller, @Body(LIST) query: ListReportQuery): Promise<DeploymentsReportResponse> {
    return this.reports.deployments(caller, query);
  }
}
