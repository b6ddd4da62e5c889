import { randomBytes } from 'node:crypto';
import { Module } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IsString } from 'class-validator';
import { ProblemCodes } from '@lp/contracts';
import { authzGuard, SkipAuthorization } from '../src';
import { createRpcClient, RpcClient, RpcController, RpcRemoteError, MessagingNames } from '@lp/platform/messaging';
import { rpcHandlerDuration } from '@lp/platform/observability';
import { createServiceApp, defineService, PlatformRuntime, ServiceApp, startPlatformRuntime } from '@lp/platform/runtime';
import { createTestDatabase, deleteTestRunResources, describeWithServers, TestDatabase, testRunId, testServerUrls } from '@lp/platform/testing';

class NamedProbe {
  @IsString()
  name!: string;
}

@RpcController()
class ProbeRpcController {
  @MessagePattern('rpc-probe.echo')
  @SkipAuthorization('test probe')
  echo(@Payload() payload: unknown) {
    return payload;
  }

  @MessagePattern('rpc-probe.validated')
  @SkipAuthorization('test probe')
  validated(@Payload() probe: NamedProbe) {
    return `hello ${probe.name}`;
  }

  /** Declares neither @Authorize nor @SkipAuthorization: the guard must refuse it. */
  @MessagePattern('rpc-probe.undeclared')
  undeclared() {
    return 'ran';
  }
}

@Module({ controllers: [ProbeRpcController] })
class ProbeModule {}

const probeService = defineService({
  name: 'rpc-probe',
  authorization: authzGuard,
  routePrefixes: ['/api/rpc-probe'],
  database: { schema: 'rpc_probe', entities: [], migrations: [] },
  modules: [ProbeModule],
  openApi: { title: 'RPC probe', description: 'test service' },
});

/** Samples recorded so far for one pattern and outcome of the probe service. */
async function timedRequests(pattern: string, outcome: 'ok' | 'error'): Promise<number> {
  const { values } = await rpcHandlerDuration.get();
  const count = values.find(
    (v) =>
      v.metricName === 'rpc_handler_duration_seconds_count' && v.labels.service === 'rpc-probe' && v.labels.pattern === pattern && v.labels.outcome === outcome,
  );
  return count?.value ?? 0;
}

async function remoteProblem(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    if (error instanceof RpcRemoteError) return error.problem;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describeWithServers(['postgres', 'rabbitmq'], 'the RPC server of a service app: its own global enhancers, and request metrics from the transport', () => {
  describe.each(['rabbitmq', 'in-process'] as const)('over %s', (transport) => {
    let db: TestDatabase;
    let runtime: PlatformRuntime;
    let service: ServiceApp;
    let client: RpcClient;

    const amqpPrefix = `${testRunId('rpcenh')}.`;
    beforeAll(async () => {
      db = await createTestDatabase(testServerUrls.postgres, testRunId('rpcenh'));
      runtime = await startPlatformRuntime('rpc-enhancers-test', {
        DATABASE_URL: db.url,
        ...(transport === 'rabbitmq' ? { AMQP_URL: testServerUrls.rabbitmq } : {}),
        AMQP_PREFIX: amqpPrefix,
        JWT_SECRET: randomBytes(32).toString('base64url'),
        LOG_LEVEL: 'silent',
      });
      service = await createServiceApp(probeService, runtime);
      client = createRpcClient(runtime.messaging, { routes: { 'rpc-probe': 'rpc-probe' } });
    }, 60_000);

    afterAll(async () => {
      await client?.close();
      await service?.app.close();
      await runtime?.close();
      await db?.drop();
      await deleteTestRunResources({ amqp: amqpPrefix, brokerObjects: new MessagingNames(amqpPrefix).durableObjects([probeService.name]) });
    });

    it('answers a handler that skips authorization, with no token or HTTP guard in the way', async () => {
      await expect(client.send('rpc-probe.echo', { hello: 'world' })).resolves.toEqual({ hello: 'world' });
    });

    it('still runs the authorization guard: a handler without a declaration is refused', async () => {
      const problem = await remoteProblem(client.send('rpc-probe.undeclared', {}));
      expect(problem).toEqual(expect.objectContaining({ status: 403, code: ProblemCodes.authorizationDenied }));
    });

    it('still validates DTO payloads', async () => {
      await expect(client.send('rpc-probe.validated', { name: 'ada' })).resolves.toBe('hello ada');
      const problem = await remoteProblem(client.send('rpc-probe.validated', { name: 42 }));
      expect(problem).toEqual(expect.objectContaining({ status: 400, code: ProblemCodes.validationFailed }));
    });

    it('times every request per pattern and outcome, a guard refusal included', async () => {
      const before = {
        ok: await timedRequests('rpc-probe.echo', 'ok'),
        refused: await timedRequests('rpc-probe.undeclared', 'error'),
      };
      await client.send('rpc-probe.echo', 1);
      await client.send('rpc-probe.echo', 2);
      await remoteProblem(client.send('rpc-probe.undeclared', {}));
      expect(await timedRequests('rpc-probe.echo', 'ok')).toBe(before.ok + 2);
      expect(await timedRequests('rpc-probe.undeclared', 'error')).toBe(before.refused + 1);
    });
  });
});
