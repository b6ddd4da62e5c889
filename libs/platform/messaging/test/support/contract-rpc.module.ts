import { CanActivate, DynamicModule, Inject, Injectable, Module, UseGuards } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AuthorizationDeniedError, DomainError } from '@lp/contracts';
import { CorrelationContext, RequestDeadline } from '@lp/platform/observability';
import { setTimeout as sleep } from 'node:timers/promises';
import { RpcController } from '../../src/lib/rpc/rpc-controller.decorator';

/** What a test observes from inside the handlers of one server, and the gates it holds them at. */
export class RpcProbe {
  readonly started: string[] = [];
  readonly guardSaw: Array<string | undefined> = [];
  private readonly gates = new Map<string, { promise: Promise<void>; open(): void }>();

  gate(server: string): Promise<void> {
    return this.gateOf(server).promise;
  }

  open(server: string): void {
    this.gateOf(server).open();
  }

  openAll(): void {
    for (const gate of this.gates.values()) gate.open();
  }

  private gateOf(server: string) {
    let gate = this.gates.get(server);
    if (!gate) {
      let open!: () => void;
      const promise = new Promise<void>((resolve) => (open = resolve));
      this.gates.set(server, (gate = { promise, open }));
    }
    return gate;
  }
}

export const SERVER_TAG = 'SERVER_TAG';

@Injectable()
class DenyingGuard implements CanActivate {
  constructor(@Inject(RpcProbe) private readonly probe: RpcProbe) {}

  canActivate(): boolean {
    this.probe.guardSaw.push(CorrelationContext.current());
    throw new AuthorizationDeniedError();
  }
}

@RpcController()
class ContractRpcController {
  constructor(
    @Inject(SERVER_TAG) private readonly server: string,
    @Inject(RpcProbe) private readonly probe: RpcProbe,
  ) {}

  @MessagePattern('contract.echo')
  echo(@Payload() data: unknown) {
    return { data, server: this.server };
  }

  @MessagePattern('contract.whoami')
  whoami() {
    return { correlationId: CorrelationContext.current() ?? null, server: this.server };
  }

  /** What is left of the request's deadline as the handler sees it (null: none). */
  @MessagePattern('contract.deadline')
  deadline() {
    return { remainingMs: RequestDeadline.remainingMs() ?? null, server: this.server };
  }

  @MessagePattern('contract.conflict')
  conflict(): never {
    throw new DomainError('Contract.Conflict', 409, 'The thing already exists.');
  }

  @MessagePattern('contract.coded')
  coded(): never {
    throw Object.assign(new Error('Quota exceeded for this tenant.'), { code: 'Contract.Quota', status: 429 });
  }

  @MessagePattern('contract.crash')
  crash(): never {
    throw new Error('connect to postgres://admin:hunter2@db:5432 failed');
  }

  @MessagePattern('contract.slow')
  async slow(@Payload() data: { ms: number }) {
    await sleep(data.ms);
    return { server: this.server };
  }

  @MessagePattern('contract.hold')
  async hold() {
    this.probe.started.push(this.server);
    await this.probe.gate(this.server);
    return { server: this.server };
  }

  @UseGuards(DenyingGuard)
  @MessagePattern('contract.guarded')
  guarded() {
    return { ran: true };
  }
}

/** A service app of RPC handlers covering what the transport contract asserts. */
@Module({})
export class ContractRpcModule {
  static forServer(server: string, probe: RpcProbe): DynamicModule {
    return {
      module: ContractRpcModule,
      controllers: [ContractRpcController],
      providers: [{ provide: SERVER_TAG, useValue: server }, { provide: RpcProbe, useValue: probe }, DenyingGuard],
    };
  }
}
