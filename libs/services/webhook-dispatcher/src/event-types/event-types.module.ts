import { Module } from '@nestjs/common';
import { EventTypesController } from './event-types.controller';

/** `GET /api/webhooks/event-types`: the catalogue of event type families. */
@Module({ controllers: [EventTypesController] })
export class EventTypesModule {}
