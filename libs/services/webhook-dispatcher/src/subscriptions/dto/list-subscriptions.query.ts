import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { MAX_EVENT_TYPE_LENGTH } from '@lp/contracts';
import { PageQuery } from '@lp/platform/http';

/** Query of GET /api/webhooks/subscriptions: the platform's paging and two filters. */
export class ListSubscriptionsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsIn(['true', 'false'])
  isActive?: 'true' | 'false';

  @ApiPropertyOptional({
    maxLength: MAX_EVENT_TYPE_LENGTH,
    example: 'ticket.created',
    description: 'A concrete event type: only subscriptions one of whose patterns matches it.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_EVENT_TYPE_LENGTH)
  eventType?: string;
}
