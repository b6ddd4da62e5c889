/** Integration event envelope (ARCHITECTURE.md, Messaging topology). Routing key = eventType. */
export interface EventEnvelope<TPayload = unknown> {
  eventId: string;
  eventType: string;
  version: number;
  tenantId: string | null;
  occurredAt: string;
  correlationId: string | null;
  payload: TPayload;
}

export const INTEGRATION_EVENTS_EXCHANGE = 'integration.events';
