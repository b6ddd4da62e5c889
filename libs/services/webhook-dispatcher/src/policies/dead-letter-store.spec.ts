import type { EntityManager } from 'typeorm';
import { DeadLetterEntry, deadLetterStoreFor, NullDeadLetterStore, PostgresDeadLetterStore } from './dead-letter-store';

const entry: DeadLetterEntry = {
  tenantId: 'default',
  subscriptionId: '00000000-0000-4000-8000-000000000001',
  deliveryId: '00000000-0000-4000-8000-000000000002',
  eventId: 'e-1',
  eventType: 'ticket.created',
  reason: 'RetriesExhausted',
  attempts: 6,
  lastStatusCode: 500,
  lastError: 'The receiver answered HTTP 500',
};

describe('the dead-letter policy (spec §2: discard by default; this platform keeps them)', () => {
  it('keeps dead letters with WEBHOOK_DEAD_LETTERS=store, in webhooks.dead_letter, in the caller’s transaction', async () => {
    const store = deadLetterStoreFor('store');
    expect(store).toBeInstanceOf(PostgresDeadLetterStore);
    expect(store.keeps).toBe(true);
    const query = jest.fn().mockResolvedValue([]);
    await store.store({ query } as unknown as EntityManager, entry);
    expect(query).toHaveBeenCalledTimes(1);
    const [sql, params] = query.mock.calls[0] as [string, unknown[]];
    expect(sql).toMatch(/INSERT INTO "webhooks"."dead_letter"/);
    expect(params).toEqual([
      expect.any(String),
      'default',
      entry.subscriptionId,
      entry.deliveryId,
      'e-1',
      'ticket.created',
      'RetriesExhausted',
      6,
      500,
      entry.lastError,
    ]);
  });

  it('discards them with WEBHOOK_DEAD_LETTERS=discard: nothing is written, and replay has nothing to act on', async () => {
    const store = deadLetterStoreFor('discard');
    expect(store).toBeInstanceOf(NullDeadLetterStore);
    expect(store.keeps).toBe(false);
    const query = jest.fn();
    await store.store({ query } as unknown as EntityManager, entry);
    expect(query).not.toHaveBeenCalled();
  });
});
