import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsUUID } from 'class-validator';
import { PageQuery } from '@lp/platform/http';

const booleanText = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

/** Query of GET /api/webhooks/dead-letters. */
export class ListDeadLettersQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  subscriptionId?: string;

  @ApiPropertyOptional({ type: 'boolean', description: 'true: only replayed ones; false: only those not replayed yet.' })
  @IsOptional()
  @Transform(booleanText)
  @IsBoolean()
  replayed?: boolean;
}

/** Query of GET /api/webhooks/subscriptions/{id}/deliveries. */
export class ListDeliveryAttemptsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the attempts of this delivery.' })
  @IsOptional()
  @IsUUID()
  deliveryId?: string;
}
