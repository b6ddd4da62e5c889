import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_SOURCE_MODULES } from '@lp/contracts';

/** A family of event types a subscription may name: every event of one source module. */
export class EventTypeFamilyResponse {
  @ApiProperty({ enum: WEBHOOK_SOURCE_MODULES }) module!: string;
  @ApiProperty({ example: 'ticket.*', description: 'The pattern naming every event of the module.' }) pattern!: string;
  @ApiProperty({ example: 'Tickets', description: 'Who publishes the events.' }) source!: string;
  @ApiProperty({
    type: [String],
    description:
      'The event types the platform itself publishes in this family (exact types a subscription may name); empty where the publisher is outside the platform.',
  })
  knownEventTypes!: string[];
}

export class EventTypeFamilyList {
  @ApiProperty({ type: [EventTypeFamilyResponse] }) items!: EventTypeFamilyResponse[];
  @ApiProperty({
    type: [String],
    example: ['ticket.*', 'ticket.created', '*.created'],
    description: 'The three pattern forms: a whole family, one exact type of a family, or a last segment in any family.',
  })
  patternForms!: string[];
}
