import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiBearerAuth, ApiBody, ApiForbiddenResponse, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { AuthorizationAction, TrustedCaller } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { Caller } from '@lp/platform/auth';
import { SchemaValidationPipe } from '@lp/platform/http';
import { DeliveryScheduler } from '../deliveries/delivery-scheduler';
import { WebhookClock } from '../deliveries/webhook-clock';
import { DeliveryFanOut } from './delivery-fan-out';
import { IngestEvent, IngestEventDto, IngestEventResponse, ingestEventSchema } from './dto/ingest-event.dto';

/**
 * `POST /api/webhooks/events`: producers outside the broker submit an event of their tenant (the
 * token's) for delivery; it fans out exactly like an event from `integration.events`.
 */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('api/webhooks/events')
export class EventsController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly fanOut: DeliveryFanOut,
    private readonly scheduler: DeliveryScheduler,
    private readonly clock: WebhookClock,
  ) {}

  @Post()
  @HttpCode(202)
  @Authorize({ module: 'webhooks', resource: 'event', action: AuthorizationAction.Create })
  @ApiBody({ type: IngestEventDto })
  @ApiAcceptedResponse({ type: IngestEventResponse, description: 'Deliveries are queued; they are attempted at once, then retried by the policy.' })
  @ApiBadRequestResponse({ description: 'Validation.Failed: an unknown event type, a payload that is not an object or too large, a malformed event id.' })
  @ApiForbiddenResponse({ description: 'Authorization.Denied' })
  async ingest(@Caller() caller: TrustedCaller, @Body(new SchemaValidationPipe(ingestEventSchema)) body: IngestEvent): Promise<IngestEventResponse> {
    const eventId = body.eventId ?? randomUUID();
    const result = await this.dataSource.transaction((manager) =>
      this.fanOut.fanOut(manager, {
        tenantId: caller.tenantId,
        eventId,
        eventType: body.eventType,
        payload: body.payload,
        occurredAt: body.occurredAt ? new Date(body.occurredAt) : this.clock.now(),
      }),
    );
    if (result.created > 0) this.scheduler.nudge();
    return { eventId, eventType: body.eventType, matchedSubscriptions: result.matched, deliveriesCreated: result.created };
  }
}
