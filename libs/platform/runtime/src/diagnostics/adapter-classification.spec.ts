import { classifyAdapter } from './adapter-classification';

describe('classifyAdapter (specs/operations.md §2, Adapter report)', () => {
  it.each([
    ['UnavailableBillingGateway', 'Unavailable'],
    ['InMemoryKeyValueCache', 'Default'],
    ['MemoryFileStore', 'Default'],
    ['NullNotificationSender', 'Default'],
    ['CapEventBus', 'Production'],
    ['RedisKeyValueCache', 'Production'],
    ['CidrAllowList', 'Production'],
    ['SignalRChatHub', 'Production'],
    ['LocalFileStore', 'Production (Local)'],
    ['DecisionCache', 'Unknown'],
    ['RevisionStampedNearCache', 'Unknown'],
  ] as const)('the spec table: %s is %s', (name, status) => {
    expect(classifyAdapter(name)).toBe(status);
  });

  it.each([
    ['RabbitMqEventBus', 'Production'],
    ['RabbitMqRpcClient', 'Production'],
    ['PostgresTenantStore', 'Production'],
    ['InProcessEventBus', 'Default'],
    ['InProcessRpcClient', 'Default'],
  ] as const)('the documented extension: %s is %s', (name, status) => {
    expect(classifyAdapter(name)).toBe(status);
  });

  it('matches a prefix only as a whole word', () => {
    expect(classifyAdapter('Capture')).toBe('Unknown');
    expect(classifyAdapter('Localized')).toBe('Unknown');
    expect(classifyAdapter('Nullable')).toBe('Unknown');
  });

  it('an unavailable proxy is Unavailable whatever its class is called', () => {
    expect(classifyAdapter('RedisKeyValueCache', { unavailableProxy: true })).toBe('Unavailable');
  });
});
