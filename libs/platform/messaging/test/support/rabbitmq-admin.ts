import { EventEnvelope } from '@lp/contracts';
import { ChannelModel, connect } from 'amqplib';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseEventEnvelope } from '../../src/lib/events/event-envelope';
import { MessagingNames } from '../../src/lib/messaging-names';

/** A plain amqplib connection for tests to look at and clean up the topology a suite declared. */
export class RabbitMqAdmin {
  private constructor(
    private readonly connection: ChannelModel,
    readonly names: MessagingNames,
  ) {}

  static async open(url: string, prefix: string): Promise<RabbitMqAdmin> {
    return new RabbitMqAdmin(await connect(url), new MessagingNames(prefix));
  }

  /** Waits for `expected` messages on a consumer's dead-letter queue and takes them off it. */
  async takeDeadLetters(consumer: string, expected: number): Promise<EventEnvelope[]> {
    const channel = await this.connection.createChannel();
    try {
      const taken: EventEnvelope[] = [];
      const deadline = Date.now() + (expected === 0 ? 300 : 5_000);
      while (Date.now() < deadline && (expected === 0 || taken.length < expected)) {
        const message = await channel.get(this.names.deadLetterQueue(consumer), { noAck: true });
        if (message) taken.push(parseEventEnvelope(message.content));
        else await sleep(20);
      }
      return taken;
    } finally {
      await channel.close();
    }
  }

  async deleteTopology(used: { services?: string[]; consumers?: string[] }): Promise<void> {
    const channel = await this.connection.createChannel();
    try {
      for (const service of used.services ?? []) await channel.deleteQueue(this.names.rpcQueue(service));
      for (const consumer of used.consumers ?? []) {
        await channel.deleteQueue(this.names.serviceQueue(consumer));
        await channel.deleteQueue(this.names.deadLetterQueue(consumer));
      }
      await channel.deleteExchange(this.names.eventsExchange);
      await channel.deleteExchange(this.names.deadLetterExchange);
    } finally {
      await channel.close();
    }
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
