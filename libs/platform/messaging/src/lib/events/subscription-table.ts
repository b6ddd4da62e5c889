import { assertTopicPattern, topicMatches } from './topic-pattern';
import type { EventHandler } from './event-bus';

/**
 * The handlers of one consumer on one bus. A consumer has a single queue however many patterns it
 * subscribes to, so a delivery is dispatched here by routing key to the handlers whose pattern
 * matches it (a queue consumer per pattern would hand events to handlers that do not want them).
 */
export class SubscriptionTable {
  private readonly entries = new Set<{ pattern: string; handler: EventHandler }>();

  add(pattern: string, handler: EventHandler): () => void {
    assertTopicPattern(pattern);
    const entry = { pattern, handler };
    this.entries.add(entry);
    return () => this.entries.delete(entry);
  }

  get size(): number {
    return this.entries.size;
  }

  handlersFor(routingKey: string): EventHandler[] {
    return [...this.entries].filter((e) => topicMatches(e.pattern, routingKey)).map((e) => e.handler);
  }
}
