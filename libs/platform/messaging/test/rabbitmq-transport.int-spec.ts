import { describeWithServers, testRunId, testServerUrls } from '@lp/platform/testing';
import { messagingTransportContract } from './messaging-transport.contract';
import { RabbitMqAdmin } from './support/rabbitmq-admin';

describeWithServers(['rabbitmq'], 'RabbitMQ transport', () => {
  messagingTransportContract(async () => {
    const prefix = `${testRunId('mq')}.`;
    const admin = await RabbitMqAdmin.open(testServerUrls.rabbitmq, prefix);
    return {
      profile: { kind: 'rabbitmq', url: testServerUrls.rabbitmq, prefix },
      takeDeadLetters: (consumer, expected) => admin.takeDeadLetters(consumer, expected),
      async dispose(used) {
        await admin.deleteTopology(used);
        await admin.close();
      },
    };
  });
});
