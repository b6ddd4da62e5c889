import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuthorizationAction, NotFoundError, Page, TrustedCaller } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { Caller } from '@lp/platform/auth';
import { DeliveriesService } from './deliveries.service';
import { DeliveryLogRepository, deadLetterOf } from './delivery-log.repository';
import { DeadLetterPage, DeadLetterResponse } from './dto/delivery.responses';
import { ListDeadLettersQuery } from './dto/list-dead-letters.query';

const DEAD_LETTER = { module: 'webhooks', resource: 'dead-letter' } as const;

/** Deliveries whose retries ran out, and their replay (libs/services/webhook-dispatcher/docs/deliveries.md, Dead letters). */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('api/webhooks/dead-letters')
export class DeadLettersController {
  constructor(
    private readonly log: DeliveryLogRepository,
    private readonly deliveries: DeliveriesService,
  ) {}

  @Get()
  @Authorize({ ...DEAD_LETTER, action: AuthorizationAction.View })
  @ApiOkResponse({ type: DeadLetterPage, description: 'Newest first.' })
  @ApiForbiddenResponse({ description: 'Authorization.Denied' })
  list(@Caller() caller: TrustedCaller, @Query() query: ListDeadLettersQuery): Promise<Page<DeadLetterResponse>> {
    return this.log.deadLetters(caller.tenantId, { subscriptionId: query.subscriptionId, replayed: query.replayed }, query);
  }

  @Get(':id')
  @Authorize({ ...DEAD_LETTER, action: AuthorizationAction.View })
  @ApiOkResponse({ type: DeadLetterResponse })
  @ApiNotFoundResponse({ description: 'NotFound' })
  async get(@Caller() caller: TrustedCaller, @Param('id') id: string): Promise<DeadLetterResponse> {
    const row = await this.log.deadLetter(caller.tenantId, id);
    if (!row) throw new NotFoundError('Dead letter');
    return deadLetterOf(row);
  }

  @Post(':id/replay')
  @HttpCode(202)
  @Authorize({ ...DEAD_LETTER, action: AuthorizationAction.Manage })
  @ApiAcceptedResponse({ type: DeadLetterResponse, description: 'The delivery is pending again, due now, with the same delivery id and a fresh retry budget.' })
  @ApiNotFoundResponse({ description: 'NotFound: no such dead letter, or its subscription was cancelled.' })
  @ApiConflictResponse({ description: 'Webhook.DeadLetter.AlreadyReplayed, Webhook.Subscription.Inactive, Webhook.DeadLetter.NotKept' })
  @ApiForbiddenResponse({ description: 'Authorization.Denied' })
  replay(@Caller() caller: TrustedCaller, @Param('id') id: string): Promise<DeadLetterResponse> {
    return this.deliveries.replay(caller, id);
  }
}
