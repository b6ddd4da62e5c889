import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AttemptRecord, DeliveryRepository } from './delivery.repository';

/** Attempts written by one statement at most. */
const MAX_BATCH = 256;

interface Pending {
  record: AttemptRecord;
  resolve(attemptNumber: number): void;
  reject(error: unknown): void;
}

/**
 * Group commit of the delivery log: attempts that finish while a write is in flight are written
 * together by the next one, one statement for all of them. Alone, an attempt is written at once
 * (no added latency); under load, one round trip serves many. Each caller's promise settles when
 * its own row is committed, so `attempt()` still answers only after its attempt is durable; a
 * process that dies before that leaves the delivery under a lapsing lease, as a death mid-attempt does.
 */
@Injectable()
export class AttemptLogWriter {
  private readonly queue: Pending[] = [];
  private writing = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveryRepository,
  ) {}

  write(record: AttemptRecord): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ record, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          const numbers = await this.deliveries.recordAttempts(
            this.dataSource.manager,
            batch.map((p) => p.record),
          );
          for (const pending of batch) {
            const number = numbers.get(pending.record.delivery.id);
            if (number === undefined) pending.reject(new Error(`delivery ${pending.record.delivery.id} vanished during its attempt`));
            else pending.resolve(number);
          }
        } catch (error) {
          for (const pending of batch) pending.reject(error);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
