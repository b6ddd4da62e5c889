import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, NotFoundError, Page, TrustedCaller } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { Caller } from '@lp/platform/auth';
import { SubscriptionsRepository } from '../subscriptions/subscriptions.repository';
import { DeliveriesService } from './deliveries.service';
import { DeliveryLogRepository } from './delivery-log.repository';
import { DeliveryAttemptPage, DeliveryAttemptResponse, DeliveryPage, DeliveryResponse, PingResponse } from './dto/delivery.responses';
import { ListDeliveryAttemptsQuery } from './dto/list-dead-letters.query';
import { ListDeliveriesQuery } from './dto/list-deliveries.query';

const DELIVERY = { module: 'webhooks', resource: 'delivery' } as const;

/** The delivery log of a subscription, one delivery, and the ping (libs/services/webhook-dispatcher/docs/deliveries.md). */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('api/webhooks')
export class DeliveriesController {
  constructor(
    private readonly log: DeliveryLogRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly deliveries: DeliveriesService,
  ) {}

  @Get('subscriptions/:id/deliveries')
  @Authorize({ ...DELIVERY, action: AuthorizationAction.View })
  @ApiOkResponse({ type: DeliveryAttemptPage, description: 'Every attempt, newest first; never a secret.' })
  @ApiNotFoundResponse({ description: 'NotFound: no such subscription in the caller’s tenant (or it was cancelled).' })
  @ApiForbiddenResponse({ description: 'Authorization.Denied' })
  async attempts(@Caller() caller: TrustedCaller, @Param('id') id: string, @Query() query: ListDeliveryAttemptsQuery): Promise<Page<DeliveryAttemptResponse>> {
    if (!(await this.subscriptions.findInTenant(caller.tenantId, id))) throw new NotFoundError('Webhook subscription');
    return this.log.attempts(caller.tenantId, id, { deliveryId: query.deliveryId }, query);
  }

  @Get('deliveries')
  @Authorize({ ...DELIVERY, action: AuthorizationAction.View })
  @ApiOkResponse({ type: DeliveryPage, description: 'The tenant’s deliveries, newest first, each with its status and its attempts nested; never a secret.' })
  @ApiForbiddenResponse({ description: 'Authorization.Denied' })
  deliveryList(@Caller() caller: TrustedCaller, @Query() query: ListDeliveriesQuery): Promise<Page<DeliveryResponse>> {
    const { subscriptionId, status, eventType } = query;
    return this.log.deliveries(caller.tenantId, { subscriptionId, status, eventType }, query);
  }

  @Get('deliveries/:id')
  @Authorize({ ...DELIVERY, action: AuthorizationAction.View })
  @ApiOkResponse({ type: DeliveryResponse })
  @ApiNotFoundResponse({ description: 'NotFound' })
  async delivery(@Caller() caller: TrustedCaller, @Param('id') id: string): Promise<DeliveryResponse> {
    const delivery = await this.log.delivery(caller.tenantId, id);
    if (!delivery) throw new NotFoundError('Webhook delivery');
    return delivery;
  }

  @Post('subscriptions/:id/ping')
  @HttpCode(200)
  @Authorize({ ...DELIVERY, action: AuthorizationAction.Create })
  @ApiOkResponse({ type: PingResponse, description: 'The one attempt’s result (a receiver’s error answer is still a 200 here: see `succeeded`).' })
  @ApiNotFoundResponse({ description: 'NotFound' })
  @ApiForbiddenResponse({ description: 'Authorization.Denied' })
  ping(@Caller() caller: TrustedCaller, @Param('id') id: string): Promise<PingResponse> {
    return this.deliveries.ping(caller, id);
  }
}
