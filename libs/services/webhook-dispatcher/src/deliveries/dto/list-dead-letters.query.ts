import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { OptionalBoolean, PageQuery } from '@lp/platform/http';

/** Query of GET /api/webhooks/dead-letters. */
export class ListDeadLettersQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  subscriptionId?: string;

  @OptionalBoolean('true: only replayed ones; false: only those not replayed yet.')
  replayed?: boolean;
}

/** Query of GET /api/webhooks/subscriptions/{id}/deliveries. */
export class ListDeliveryAttemptsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the attempts of this delivery.' })
  @IsOptional()
  @IsUUID()
  deliveryId?: string;
}
