import { EventEmitter } from 'node:events';
import { ConnectWaiter, RabbitMqEventBus } from '../src/lib/events/rabbitmq-event-bus';

describe('waiting for a RabbitMQ channel to connect', () => {
  it('shares one pending wait between callers and starts a new one after the connection', async () => {
    const channel = new (class extends EventEmitter {
      waitForConnect = () => new Promise<void>((resolve) => this.once('connect', resolve));
    })();
    const waiter = new ConnectWaiter(channel);
    const waits = Array.from({ length: 25 }, () => waiter.wait());
    expect(channel.listenerCount('connect')).toBe(1);
    channel.emit('connect');
    await Promise.all(waits);
    void waiter.wait();
    expect(channel.listenerCount('connect')).toBe(1);
    channel.emit('connect');
  });

  it('readiness probes during a broker outage do not pile up listeners (MaxListenersExceededWarning)', async () => {
    // Nothing listens on port 1: the bus keeps reconnecting while the probes fail.
    const bus = new RabbitMqEventBus({ url: 'amqp://guest:guest@127.0.0.1:1', prefix: 'waiter-test.', reconnectSeconds: 60 });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 20; i++) await expect(bus.ping(1)).rejects.toThrow('not connected');
      const publisher = (bus as unknown as { publisher: EventEmitter }).publisher;
      expect(publisher.listenerCount('connect')).toBeLessThanOrEqual(1);
      await new Promise((r) => setImmediate(r)); // process warnings are emitted on the next tick
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
      await bus.close();
    }
  });
});
