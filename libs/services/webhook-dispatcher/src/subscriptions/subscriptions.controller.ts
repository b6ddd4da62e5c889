import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
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
  ApiTags,
} from '@nestjs/swagger';
import { AuthorizationAction, isWebhookEventType, Page, TrustedCaller, WebhookSubscriptionView, WebhookSubscriptionWithSecret } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { Caller } from '@lp/platform/auth';
import { SchemaValidationPipe, ValidationError } from '@lp/platform/http';
import { CreateSubscriptionDto, RotateSecretDto, UpdateSubscriptionDto } from './dto/create-subscription.dto';
import { ListSubscriptionsQuery } from './dto/list-subscriptions.query';
import { rotateSecretSchema, ValidCreateSubscription, ValidRotateSecret, ValidUpdateSubscription } from './dto/subscription.schemas';
import { SubscriptionPage, SubscriptionResponse, SubscriptionWithSecretResponse } from './dto/subscription.response';
import { CreateSubscriptionPipe, UpdateSubscriptionPipe } from './subscription-body.pipes';
import { SubscriptionsService } from './subscriptions.service';

/** `webhooks.subscription.*`: the permission codes of docs/subscriptions.md. */
export const SUBSCRIPTION_RESOURCE = { module: 'webhooks', resource: 'subscription' } as const;

const NOT_FOUND = 'NotFound: no such live subscription in the caller’s tenant (another tenant’s, a deleted one and a malformed id alike).';
const INVALID = 'Validation.Failed, with the problems per field; nothing is written.';

/** Webhook subscriptions over HTTP (docs/subscriptions.md); `SubscriptionsRpcController` serves the list over RPC. */
@ApiTags('webhook subscriptions')
@ApiBearerAuth()
@Controller('api/webhooks/subscriptions')
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Post()
  @Authorize({ ...SUBSCRIPTION_RESOURCE, action: AuthorizationAction.Create })
  @ApiBody({ type: CreateSubscriptionDto })
  @ApiCreatedResponse({ type: SubscriptionWithSecretResponse, description: 'Created; `secret` is shown in this answer only.' })
  @ApiBadRequestResponse({ description: INVALID })
  @ApiConflictResponse({ description: 'Webhook.Subscription.LimitReached: the tenant holds 100 subscriptions already; nothing is written.' })
  @ApiForbiddenResponse({ description: 'Authorization.Denied: the caller may not create subscriptions.' })
  create(@Caller() caller: TrustedCaller, @Body(CreateSubscriptionPipe) body: ValidCreateSubscription): Promise<WebhookSubscriptionWithSecret> {
    return this.subscriptions.create(caller, body);
  }

  @Get()
  @Authorize({ ...SUBSCRIPTION_RESOURCE, action: AuthorizationAction.View })
  @ApiOkResponse({ type: SubscriptionPage, description: 'One page of the tenant’s subscriptions, newest first.' })
  @ApiBadRequestResponse({ description: 'Validation.Failed: paging out of range, or `eventType` not a concrete event type.' })
  @ApiForbiddenResponse({ description: 'Authorization.Denied.' })
  list(@Caller() caller: TrustedCaller, @Query() query: ListSubscriptionsQuery): Promise<Page<WebhookSubscriptionView>> {
    if (query.eventType !== undefined && !isWebhookEventType(query.eventType)) {
      throw new ValidationError({ eventType: ['eventType must be a concrete event type of a registered module, e.g. ticket.created'] });
    }
    const isActive = query.isActive === undefined ? undefined : query.isActive === 'true';
    return this.subscriptions.list(caller, { isActive, eventType: query.eventType }, query);
  }

  @Get(':id')
  @Authorize({ ...SUBSCRIPTION_RESOURCE, action: AuthorizationAction.View })
  @ApiOkResponse({ type: SubscriptionResponse })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: 'Authorization.Denied.' })
  get(@Caller() caller: TrustedCaller, @Param('id') id: string): Promise<WebhookSubscriptionView> {
    return this.subscriptions.get(caller, id);
  }

  @Patch(':id')
  @Authorize({ ...SUBSCRIPTION_RESOURCE, action: AuthorizationAction.Update })
  @ApiBody({ type: UpdateSubscriptionDto })
  @ApiOkResponse({ type: SubscriptionResponse, description: 'Changed (revision + 1), or as it was when nothing changes.' })
  @ApiBadRequestResponse({ description: INVALID })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: 'Authorization.Denied.' })
  update(
    @Caller() caller: TrustedCaller,
    @Param('id') id: string,
    @Body(UpdateSubscriptionPipe) body: ValidUpdateSubscription,
  ): Promise<WebhookSubscriptionView> {
    return this.subscriptions.update(caller, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @Authorize({ ...SUBSCRIPTION_RESOURCE, action: AuthorizationAction.Delete })
  @ApiNoContentResponse({ description: 'Cancelled (soft delete); its pending deliveries are cancelled in the same transaction.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: 'Authorization.Denied.' })
  remove(@Caller() caller: TrustedCaller, @Param('id') id: string): Promise<void> {
    return this.subscriptions.remove(caller, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @Authorize({ ...SUBSCRIPTION_RESOURCE, action: AuthorizationAction.Manage })
  @ApiBody({ type: RotateSecretDto, required: false })
  @ApiOkResponse({
    type: SubscriptionWithSecretResponse,
    description: 'The new `secret`, shown in this answer only; the old one is the previous secret for the overlap.',
  })
  @ApiBadRequestResponse({ description: INVALID })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: 'Authorization.Denied.' })
  rotateSecret(
    @Caller() caller: TrustedCaller,
    @Param('id') id: string,
    @Body(new SchemaValidationPipe(rotateSecretSchema)) body: ValidRotateSecret,
  ): Promise<WebhookSubscriptionWithSecret> {
    return this.subscriptions.rotateSecret(caller, id, body);
  }
}
