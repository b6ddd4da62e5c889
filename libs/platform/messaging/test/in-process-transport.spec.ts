import { EventEnvelope } from '@lp/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseEventEnvelope } from '../src/lib/events/event-envelope';
import { InProcessBroker } from '../src/lib/in-process/in-process-broker';
import { MessagingNames } from '../src/lib/messaging-names';
import { messagingTransportContract } from './messaging-transport.contract';

describe('in-process transport', () => {
  messagingTransportContract(async () => {
    const broker = new InProcessBroker();
    const names = new MessagingNames('contract.');
    return {
      profile: { kind: 'in-process', prefix: 'contract.', broker },
      async takeDeadLetters(consumer: string, expected: number): Promise<EventEnvelope[]> {
        const taken: EventEnvelope[] = [];
        const deadline = Date.now() + (expected === 0 ? 200 : 3_000);
        while (Date.now() < deadline && (expected === 0 || taken.length < expected)) {
          const queue = broker.eventQueue(names.deadLetterQueue(consumer));
          taken.push(...(queue?.takeAll() ?? []).map((m) => parseEventEnvelope(m.content)));
          await sleep(10);
        }
        return taken;
      },
      async dispose() {
        // Nothing outlives the broker object.
      },
    };
  });
});
