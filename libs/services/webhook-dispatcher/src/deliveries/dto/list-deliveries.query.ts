import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { MAX_EVENT_TYPE_LENGTH } from '@lp/contracts';
import { PageQuery } from '@lp/platform/http';
import { DELIVERY_VIEW_STATUSES, DeliveryViewStatus } from './delivery.responses';

/** Query of `GET /api/webhooks/deliveries`: the platform's paging and filters, every one given must hold. */
export class ListDeliveriesQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the deliveries to this subscription.' })
  @IsOptional()
  @IsUUID()
  subscriptionId?: string;

  @ApiPropertyOptional({ enum: DELIVERY_VIEW_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_VIEW_STATUSES, { message: `status must be one of ${DELIVERY_VIEW_STATUSES.join(', ')}` })
  status?: DeliveryViewStatus;

  @ApiPropertyOptional({ maxLength: MAX_EVENT_TYPE_LENGTH, example: 'ticket.created', description: 'Only deliveries of exactly this event type.' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_EVENT_TYPE_LENGTH)
  eventType?: string;
}
