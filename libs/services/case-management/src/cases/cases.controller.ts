import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { AuthorizationAction, createCaseSchema, DataScope, LitigationCase, Page, TrustedCaller, ValidCreateCase } from '@lp/contracts';
import { Authorize, CurrentDataScope } from '@lp/authz-guard';
import { Caller } from '@lp/platform/auth';
import { SchemaValidationPipe } from '@lp/platform/http';
import { CaseFactsLoader } from './case-facts.loader';
import { CasesService } from './cases.service';
import { CasePage, CaseResponse } from './dto/case.response';
import { CreateCaseDto } from './dto/create-case.dto';
import { ListCasesQuery } from './dto/list-cases.query';

/** `cases.case.*`: the permission codes of docs/cases.md; ReBAC relations are keyed by resource type `case`. */
export const CASE_RESOURCE = { module: 'cases', resource: 'case' } as const;

/** Litigation cases over HTTP (docs/cases.md); `CasesRpcController` serves the same operations over RPC. */
@ApiTags('cases')
@ApiBearerAuth()
@Controller('api/cases')
export class CasesController {
  constructor(private readonly cases: CasesService) {}

  @Post()
  @Authorize({ ...CASE_RESOURCE, action: AuthorizationAction.Create })
  @ApiBody({ type: CreateCaseDto })
  @ApiCreatedResponse({ type: CaseResponse, description: 'Created, status `open`, owned by the caller; `case.created` is published.' })
  @ApiBadRequestResponse({ description: 'Validation.Failed, with the problems per field; nothing is written.' })
  @ApiForbiddenResponse({ description: 'Authorization.Denied: the caller may not create cases; nothing is written.' })
  create(@Caller() caller: TrustedCaller, @Body(new SchemaValidationPipe(createCaseSchema)) body: ValidCreateCase): Promise<LitigationCase> {
    return this.cases.create(caller, body);
  }

  @Get()
  @Authorize({ ...CASE_RESOURCE, action: AuthorizationAction.View })
  @ApiOkResponse({ type: CasePage, description: 'One page of the cases the caller’s DataScope reaches, newest first.' })
  list(@CurrentDataScope() scope: DataScope, @Query() query: ListCasesQuery): Promise<Page<LitigationCase>> {
    return this.cases.list(scope, { status: query.status, caseType: query.caseType, search: query.search }, query);
  }

  @Get(':id')
  @Authorize({ ...CASE_RESOURCE, action: AuthorizationAction.View, facts: CaseFactsLoader })
  @ApiOkResponse({ type: CaseResponse })
  @ApiNotFoundResponse({ description: 'NotFound: no such case in the caller’s tenant, or outside the caller’s DataScope.' })
  get(@CurrentDataScope() scope: DataScope, @Param('id') id: string): Promise<LitigationCase> {
    return this.cases.get(scope, id);
  }
}
