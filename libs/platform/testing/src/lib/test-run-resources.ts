import { BrokerObjects, deleteBrokerObjects } from './broker-objects';
import { deleteRedisKeys } from './redis-keys';
import { testServerUrls } from './servers';

/**
 * What one suite's run created on the shared servers, named by the run's own prefixes: its Redis
 * keys (REDIS_KEY_PREFIX) and its RabbitMQ queues and exchanges (AMQP_PREFIX: by name when the
 * run's `brokerObjects` are given, from MessagingNames.durableObjects; otherwise by listing the
 * broker's objects). Call from the suite's teardown after its apps are closed; the Jest global
 * teardown sweeps whatever a crashed suite left, by run id.
 */
export async function deleteTestRunResources(prefixes: { redis?: string; amqp?: string; brokerObjects?: BrokerObjects }): Promise<void> {
  if (prefixes.redis) await deleteRedisKeys(testServerUrls.redis, prefixes.redis);
  if (prefixes.amqp) await deleteBrokerObjects(testServerUrls.rabbitmq, prefixes.amqp, { known: prefixes.brokerObjects });
}
