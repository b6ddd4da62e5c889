import { topicMatches } from '../events/topic-pattern';

/** Routes by AMQP topic rules; a queue bound by several matching patterns still gets one copy. */
export class InProcessTopicExchange {
  private readonly bindings = new Map<string, Set<string>>();

  bind(queue: string, pattern: string): void {
    let patterns = this.bindings.get(queue);
    if (!patterns) this.bindings.set(queue, (patterns = new Set()));
    patterns.add(pattern);
  }

  unbindAll(queue: string): void {
    this.bindings.delete(queue);
  }

  route(routingKey: string): string[] {
    return [...this.bindings].filter(([, patterns]) => [...patterns].some((p) => topicMatches(p, routingKey))).map(([queue]) => queue);
  }
}
