import { Injectable, Logger } from '@nestjs/common';
import { FLEET_SERVICE_NAMES, ServiceRpc, type DiagnosticsReportKind, type ReplyOf, type TrustedCaller } from '@lp/contracts';
import { InjectConfig } from '@lp/platform/config';
import { RpcClient, RpcRemoteError } from '@lp/platform/messaging';
import { OperationsConfig, operationsConfig } from '../operations.config';
import type { ServiceAnswerStatus } from './dto/diagnostics.response';

type SnapshotOf<K extends DiagnosticsReportKind> = ReplyOf<ReturnType<(typeof ServiceRpc.diagnostics)[K]>>;

export interface ServiceAnswer<S> {
  service: string;
  status: ServiceAnswerStatus;
  reason?: string;
  snapshot?: S;
}

export interface FleetReport<S> {
  generatedAt: string;
  services: Array<ServiceAnswer<S>>;
}

/**
 * Gathers one report from every service of the fleet at once, on the caller's behalf (each service's
 * guard decides again). A service that does not answer in time is listed as unreachable and the
 * report still answers: a diagnostics view that fails whole when one service is down would hide
 * the very thing it is for.
 */
@Injectable()
export class FleetDiagnosticsService {
  private readonly logger = new Logger(FleetDiagnosticsService.name);

  constructor(
    private readonly rpc: RpcClient,
    @InjectConfig(operationsConfig) private readonly config: OperationsConfig,
  ) {}

  async gather<K extends DiagnosticsReportKind>(
    kind: K,
    caller: TrustedCaller,
    services: readonly string[] = FLEET_SERVICE_NAMES,
  ): Promise<FleetReport<SnapshotOf<K>>> {
    const timeoutMs = this.config.OPERATIONS_DIAGNOSTICS_TIMEOUT_MS;
    const answers = await Promise.all(services.map((service) => this.ask(kind, service, caller, timeoutMs)));
    return { generatedAt: new Date().toISOString(), services: answers };
  }

  private async ask<K extends DiagnosticsReportKind>(
    kind: K,
    service: string,
    caller: TrustedCaller,
    timeoutMs: number,
  ): Promise<ServiceAnswer<SnapshotOf<K>>> {
    const contract = ServiceRpc.diagnostics[kind](service);
    try {
      const snapshot = (await this.rpc.call(contract, { caller, payload: {} }, { timeoutMs })) as SnapshotOf<K>;
      return { service, status: 'ok', snapshot };
    } catch (error) {
      if (error instanceof RpcRemoteError) {
        return { service, status: 'failed', reason: `${error.problem.status} ${error.problem.code}: ${error.problem.detail ?? error.problem.title}` };
      }
      // Timeout or transport: the service may be down, or up without a consumer on its queue.
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`diagnostics ${kind}: ${service} unreachable: ${reason}`);
      return { service, status: 'unreachable', reason };
    }
  }
}
