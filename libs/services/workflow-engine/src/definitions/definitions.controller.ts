import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res, UseFilters } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthorizationAction, Page, TrustedCaller } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { Caller } from '@lp/platform/auth';
import { PageQuery, SchemaValidationPipe, TimeoutPolicy } from '@lp/platform/http';
import { DESIGNER_SCHEMA, DEFINITION_JSON_SCHEMA, SimulationRequest } from '../engine';
import { DefinitionKeyPipe } from './definition-key.pipe';
import { DefinitionProblemFilter } from './definition-problem.filter';
import { DEFINITION_KEY_PATTERN } from './definition-rules';
import { DefinitionsService } from './definitions.service';
import {
  ActiveDefinitionResponse,
  BindingResponse,
  DeploymentsResponse,
  DraftResponse,
  PublishResponse,
  SimulationResponse,
  ValidationResponse,
  VersionPage,
  VersionResponse,
  VersionSummary,
} from './dto/definition.responses';
import {
  Grayscale,
  grayscaleSchema,
  GrayscaleDto,
  LegacyDeploy,
  legacyDeploySchema,
  LegacyDeployDto,
  PublishDefinition,
  publishDefinitionSchema,
  PublishDefinitionDto,
} from './dto/deploy-definition.dto';
import { definitionJsonSchema, PublishDraft, publishDraftSchema, PublishDraftDto, SaveDraft, saveDraftSchema, SaveDraftDto } from './dto/save-draft.dto';
import { SimulateDefinition, simulateDefinitionSchema, SimulateDefinitionDto, SimulateDraftDto, simulateDraftSchema } from './dto/simulate-definition.dto';
import { WritesNothing } from '../runtime-feature/workflow-runtime.guard';

/** `workflow.definition.{view,update,manage}` (docs/definitions.md, Routes and permissions). */
const DEFINITION = { module: 'workflow', resource: 'definition' } as const;
const VIEW = { ...DEFINITION, action: AuthorizationAction.View };
const UPDATE = { ...DEFINITION, action: AuthorizationAction.Update };
const MANAGE = { ...DEFINITION, action: AuthorizationAction.Manage };

const KEY = ApiParam({
  name: 'key',
  schema: { type: 'string', pattern: DEFINITION_KEY_PATTERN.source, maxLength: 64 },
  description: 'The definition key (tenant-unique slug).',
});
const key = () => Param('key', new DefinitionKeyPipe());
const DENIED = ApiForbiddenResponse({ description: 'Authorization.Denied; nothing is written.' });
const TOO_LARGE = ApiPayloadTooLargeResponse({
  description: 'Workflow.Definition.TooLarge (WORKFLOW_DEFINITION_MAX_BYTES / _MAX_NODES), or PayloadTooLarge past 1 MB.',
});
const INVALID = ApiUnprocessableEntityResponse({
  description: 'Workflow.Definition.Invalid, with `problems` (code, message, nodeKey, path); nothing is written.',
});

/**
 * Workflow definitions under /api/workflow/definitions (spec §4, docs/definitions.md). Writes are
 * `StandardCommand` (declared, though it is the default) and `userPolicy`-limited (the platform's
 * throttler limits every POST, PUT and DELETE); the tenant is always the caller's.
 */
@ApiTags('Workflow-Definitions')
@ApiBearerAuth()
@Controller('api/workflow/definitions')
@UseFilters(DefinitionProblemFilter)
export class DefinitionsController {
  constructor(private readonly definitions: DefinitionsService) {}

  // ---- routes without a key (static segments first) ----------------------------------------

  @Post()
  @HttpCode(201)
  @Authorize(MANAGE)
  @TimeoutPolicy('StandardCommand')
  @ApiOperation({ summary: 'Deploy a snapshot (legacy): only compilable JSON is required; publishes the next version and makes it active.' })
  @ApiBody({ type: LegacyDeployDto })
  @ApiCreatedResponse({ type: PublishResponse })
  @ApiBadRequestResponse({ description: 'Validation.Failed (body shape, key rule).' })
  @ApiUnprocessableEntityResponse({ description: 'Workflow.Definition.Invalid: the snapshot does not compile, with `problems`.' })
  @DENIED
  @TOO_LARGE
  legacyDeploy(@Caller() caller: TrustedCaller, @Body(new SchemaValidationPipe(legacyDeploySchema)) body: LegacyDeploy): Promise<PublishResponse> {
    return this.definitions.legacyDeploy(caller, new DefinitionKeyPipe('key').transform(body.key), body.definition);
  }

  @Post('validate')
  @WritesNothing('validation and simulation write nothing: the workflow.runtime gate is for writes')
  @HttpCode(200)
  @Authorize(VIEW)
  @TimeoutPolicy('StandardCommand')
  @ApiOperation({ summary: 'Static validation of the definition in the body; nothing is written.' })
  @ApiBody({ schema: { type: 'object', additionalProperties: true }, description: 'The definition JSON itself.' })
  @ApiOkResponse({ type: ValidationResponse, description: 'Valid or not, with every problem: an invalid definition is an answer here, not an error.' })
  @DENIED
  @TOO_LARGE
  validate(@Body(new SchemaValidationPipe(definitionJsonSchema)) definition: Record<string, unknown>): ValidationResponse {
    return this.definitions.validate(definition);
  }

  @Post('simulate')
  @WritesNothing('validation and simulation write nothing: the workflow.runtime gate is for writes')
  @HttpCode(200)
  @Authorize(VIEW)
  @TimeoutPolicy('StandardCommand')
  @ApiOperation({ summary: 'In-memory simulation of the definition in the body; nothing is written.' })
  @ApiBody({ type: SimulateDefinitionDto })
  @ApiOkResponse({ type: SimulationResponse })
  @INVALID
  @DENIED
  @TOO_LARGE
  simulate(@Caller() caller: TrustedCaller, @Body(new SchemaValidationPipe(simulateDefinitionSchema)) body: SimulateDefinition): Promise<SimulationResponse> {
    const { definition, ...request } = body;
    return this.definitions.simulate(caller, definition, request);
  }

  @Get('schema')
  @Authorize(VIEW)
  @ApiOperation({ summary: 'The JSON Schema of the definition format.' })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  @DENIED
  schema(): Record<string, unknown> {
    return DEFINITION_JSON_SCHEMA;
  }

  @Get('designer-schema')
  @Authorize(VIEW)
  @ApiOperation({ summary: 'Designer metadata: node config fields, resolver and handler catalogs.' })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  @DENIED
  designerSchema(): Record<string, unknown> {
    return DESIGNER_SCHEMA;
  }

  @Get('versions/:definitionId')
  @Authorize(VIEW)
  @ApiOperation({ summary: 'One immutable version, with its definition JSON.' })
  @ApiParam({ name: 'definitionId', format: 'uuid' })
  @ApiOkResponse({ type: VersionResponse })
  @ApiNotFoundResponse({ description: 'NotFound: no such version in the caller’s tenant.' })
  @DENIED
  version(@Caller() caller: TrustedCaller, @Param('definitionId') id: string): Promise<VersionResponse> {
    return this.definitions.getVersion(caller, id);
  }

  // ---- versions and deployments of a key ----------------------------------------------------

  @Get(':key/versions')
  @Authorize(VIEW)
  @KEY
  @ApiOperation({ summary: 'The versions of a key, newest first (paged).' })
  @ApiOkResponse({ type: VersionPage })
  @ApiNotFoundResponse({ description: 'NotFound: the key has no version in the caller’s tenant.' })
  @DENIED
  versions(@Caller() caller: TrustedCaller, @key() definitionKey: string, @Query() page: PageQuery): Promise<Page<VersionSummary>> {
    return this.definitions.listVersions(caller, definitionKey, page);
  }

  @Get(':key/active')
  @Authorize(VIEW)
  @KEY
  @ApiOperation({ summary: 'The active version of a key, with its definition JSON and the binding status.' })
  @ApiOkResponse({ type: ActiveDefinitionResponse })
  @ApiNotFoundResponse({ description: 'NotFound: nothing published under the key in the caller’s tenant.' })
  @DENIED
  active(@Caller() caller: TrustedCaller, @key() definitionKey: string): Promise<ActiveDefinitionResponse> {
    return this.definitions.getActive(caller, definitionKey);
  }

  @Get(':key/deployments')
  @Authorize(VIEW)
  @KEY
  @ApiOperation({ summary: 'The binding (active, previous, status) and its history, newest first (paged).' })
  @ApiOkResponse({ type: DeploymentsResponse })
  @ApiNotFoundResponse({ description: 'NotFound: nothing published under the key in the caller’s tenant.' })
  @DENIED
  deployments(@Caller() caller: TrustedCaller, @key() definitionKey: string, @Query() page: PageQuery): Promise<DeploymentsResponse> {
    return this.definitions.deployments(caller, definitionKey, page);
  }

  @Post(':key/deployments')
  @HttpCode(201)
  @Authorize(MANAGE)
  @TimeoutPolicy('StandardCommand')
  @KEY
  @ApiOperation({ summary: 'Publish the definition in the body: validated authoritatively, then the next immutable version, made active.' })
  @ApiBody({ type: PublishDefinitionDto })
  @ApiCreatedResponse({ type: PublishResponse })
  @INVALID
  @DENIED
  @TOO_LARGE
  publish(
    @Caller() caller: TrustedCaller,
    @key() definitionKey: string,
    @Body(new SchemaValidationPipe(publishDefinitionSchema)) body: PublishDefinition,
  ): Promise<PublishResponse> {
    return this.definitions.publish(caller, definitionKey, body.definition);
  }

  @Post(':key/deployments/grayscale')
  @HttpCode(200)
  @Authorize(MANAGE)
  @TimeoutPolicy('StandardCommand')
  @KEY
  @ApiOperation({ summary: 'Switch the active version to the one named, keep the current one as previous; status `grayscale` (not percentage routing).' })
  @ApiBody({ type: GrayscaleDto })
  @ApiOkResponse({ type: BindingResponse })
  @ApiNotFoundResponse({ description: 'NotFound: no such key or version in the caller’s tenant.' })
  @ApiConflictResponse({ description: 'Workflow.Definition.AlreadyActive: the version is the active one.' })
  @DENIED
  grayscale(
    @Caller() caller: TrustedCaller,
    @key() definitionKey: string,
    @Body(new SchemaValidationPipe(grayscaleSchema)) body: Grayscale,
  ): Promise<BindingResponse> {
    return this.definitions.grayscale(caller, definitionKey, body.version);
  }

  @Post(':key/deployments/complete-grayscale')
  @HttpCode(200)
  @Authorize(MANAGE)
  @TimeoutPolicy('StandardCommand')
  @KEY
  @ApiOperation({ summary: 'Promote the status marker from `grayscale` to `active`; the versions stay as they are.' })
  @ApiOkResponse({ type: BindingResponse })
  @ApiNotFoundResponse({ description: 'NotFound: nothing published under the key in the caller’s tenant.' })
  @ApiConflictResponse({ description: 'Workflow.Definition.NotInGrayscale.' })
  @DENIED
  completeGrayscale(@Caller() caller: TrustedCaller, @key() definitionKey: string): Promise<BindingResponse> {
    return this.definitions.completeGrayscale(caller, definitionKey);
  }

  @Post(':key/deployments/rollback')
  @HttpCode(200)
  @Authorize(MANAGE)
  @TimeoutPolicy('StandardCommand')
  @KEY
  @ApiOperation({ summary: 'Restore the previous version as active (status `active`, no previous afterwards).' })
  @ApiOkResponse({ type: BindingResponse })
  @ApiNotFoundResponse({ description: 'NotFound: nothing published under the key in the caller’s tenant.' })
  @ApiConflictResponse({ description: 'Workflow.Definition.NothingToRollBack.' })
  @DENIED
  rollback(@Caller() caller: TrustedCaller, @key() definitionKey: string): Promise<BindingResponse> {
    return this.definitions.rollback(caller, definitionKey);
  }

  // ---- the draft of a key -------------------------------------------------------------------

  @Get(':key/draft')
  @Authorize(VIEW)
  @KEY
  @ApiOperation({ summary: 'The draft and its revision.' })
  @ApiOkResponse({ type: DraftResponse })
  @ApiNotFoundResponse({ description: 'NotFound: the key has no draft in the caller’s tenant.' })
  @DENIED
  draft(@Caller() caller: TrustedCaller, @key() definitionKey: string): Promise<DraftResponse> {
    return this.definitions.getDraft(caller, definitionKey);
  }

  @Put(':key/draft')
  @Authorize(UPDATE)
  @TimeoutPolicy('StandardCommand')
  @KEY
  @ApiOperation({ summary: 'Save the draft with optimistic concurrency: `revision` 0 creates, otherwise it must be the stored revision.' })
  @ApiBody({ type: SaveDraftDto })
  @ApiCreatedResponse({ type: DraftResponse, description: 'Created at revision 1.' })
  @ApiOkResponse({ type: DraftResponse, description: 'Saved; the revision is one higher.' })
  @ApiConflictResponse({ description: 'Workflow.Definition.RevisionConflict, with `currentRevision`; nothing is saved.' })
  @DENIED
  @TOO_LARGE
  async saveDraft(
    @Caller() caller: TrustedCaller,
    @key() definitionKey: string,
    @Body(new SchemaValidationPipe(saveDraftSchema)) body: SaveDraft,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DraftResponse> {
    const { draft, created } = await this.definitions.saveDraft(caller, definitionKey, body.revision ?? 0, body.definition);
    res.status(created ? 201 : 200);
    return draft;
  }

  @Delete(':key/draft')
  @HttpCode(204)
  @Authorize(UPDATE)
  @TimeoutPolicy('StandardCommand')
  @KEY
  @ApiOperation({ summary: 'Delete the draft (whatever its revision); published versions are untouched.' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiNotFoundResponse({ description: 'NotFound: the key has no draft in the caller’s tenant.' })
  @DENIED
  deleteDraft(@Caller() caller: TrustedCaller, @key() definitionKey: string): Promise<void> {
    return this.definitions.deleteDraft(caller, definitionKey);
  }

  @Post(':key/draft/validate')
  @WritesNothing('validation and simulation write nothing: the workflow.runtime gate is for writes')
  @HttpCode(200)
  @Authorize(VIEW)
  @TimeoutPolicy('StandardCommand')
  @KEY
  @ApiOperation({ summary: 'Validate the saved draft; nothing is written.' })
  @ApiOkResponse({ type: ValidationResponse })
  @ApiNotFoundResponse({ description: 'NotFound: the key has no draft in the caller’s tenant.' })
  @DENIED
  validateDraft(@Caller() caller: TrustedCaller, @key() definitionKey: string): Promise<ValidationResponse> {
    return this.definitions.validateDraft(caller, definitionKey);
  }

  @Post(':key/draft/simulate')
  @WritesNothing('validation and simulation write nothing: the workflow.runtime gate is for writes')
  @HttpCode(200)
  @Authorize(VIEW)
  @TimeoutPolicy('StandardCommand')
  @KEY
  @ApiOperation({ summary: 'Simulate the saved draft’s path for the given variables; nothing is written.' })
  @ApiBody({ type: SimulateDraftDto, required: false })
  @ApiOkResponse({ type: SimulationResponse })
  @ApiNotFoundResponse({ description: 'NotFound: the key has no draft in the caller’s tenant.' })
  @INVALID
  @DENIED
  simulateDraft(
    @Caller() caller: TrustedCaller,
    @key() definitionKey: string,
    @Body(new SchemaValidationPipe(simulateDraftSchema)) body: SimulationRequest,
  ): Promise<SimulationResponse> {
    return this.definitions.simulateDraft(caller, definitionKey, body);
  }

  @Post(':key/draft/publish')
  @HttpCode(201)
  @Authorize(MANAGE)
  @TimeoutPolicy('StandardCommand')
  @KEY
  @ApiOperation({ summary: 'Validate the draft authoritatively, create the next immutable version, make it active, remove the draft.' })
  @ApiBody({ type: PublishDraftDto, required: false })
  @ApiCreatedResponse({ type: PublishResponse })
  @ApiNotFoundResponse({ description: 'NotFound: the key has no draft in the caller’s tenant.' })
  @ApiConflictResponse({ description: 'Workflow.Definition.RevisionConflict: `revision` was given and the draft is at another one.' })
  @INVALID
  @DENIED
  publishDraft(
    @Caller() caller: TrustedCaller,
    @key() definitionKey: string,
    @Body(new SchemaValidationPipe(publishDraftSchema)) body: PublishDraft,
  ): Promise<PublishResponse> {
    return this.definitions.publishDraft(caller, definitionKey, body.revision);
  }
}
