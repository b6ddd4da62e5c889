import { Inject, Optional, Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { AdaptersSnapshot, AuthorizationAction, ConfigSnapshot, ConnectorsSnapshot, GovernanceSnapshot, ServiceRpc } from '@lp/contracts';
import { RpcController, RpcHandler } from '@lp/platform/messaging';
import type { AuthorizationPort } from '../service-definition';
import { buildAdaptersSnapshot, type PortDeclaration, SERVICE_PORTS } from './adapters-snapshot';
import { buildConfigSnapshot } from './config-snapshot';
import { ConnectorRegistry } from './connector-catalog';
import { buildGovernanceSnapshot } from './governance-snapshot';
import { RuntimeLicenseProvider } from './runtime-license';

/** Which service this app is and the environment it was started with (its config and adapters were chosen from it). */
export const DIAGNOSTICS_CONTEXT = Symbol('DIAGNOSTICS_CONTEXT');
export interface DiagnosticsContext {
  service: string;
  env: Readonly<Record<string, string | undefined>>;
}

// The pattern is the same for every service; the service only names the queue.
const rpc = ServiceRpc.diagnostics;
const VIEW = { module: 'operations', resource: 'diagnostics', action: AuthorizationAction.View };

/**
 * The diagnostics every service answers on its own queue, each a snapshot of this process rebuilt
 * per call (`operations.diagnostics.view`, platform-level). Built per service app because the
 * guard's decorator comes from the service definition (the runtime does not import the guard library).
 */
export function serviceDiagnosticsRpcController(authorization: AuthorizationPort): Type {
  @RpcController()
  class ServiceDiagnosticsRpcController {
    constructor(
      private readonly container: ModulesContainer,
      @Inject(DIAGNOSTICS_CONTEXT) private readonly context: DiagnosticsContext,
      private readonly connectors: ConnectorRegistry,
      @Optional() private readonly license?: RuntimeLicenseProvider,
      @Optional() @Inject(SERVICE_PORTS) private readonly servicePorts?: PortDeclaration[],
    ) {}

    @RpcHandler(rpc.governance('any'))
    @authorization.authorize(VIEW)
    governance(): GovernanceSnapshot {
      return buildGovernanceSnapshot(this.container);
    }

    @RpcHandler(rpc.adapters('any'))
    @authorization.authorize(VIEW)
    adapters(): AdaptersSnapshot {
      return buildAdaptersSnapshot({ container: this.container, env: this.context.env, servicePorts: this.servicePorts, license: this.license });
    }

    @RpcHandler(rpc.connectors('any'))
    @authorization.authorize(VIEW)
    connectorReadiness(): ConnectorsSnapshot {
      return { connectors: this.connectors.entries() };
    }

    @RpcHandler(rpc.config('any'))
    @authorization.authorize(VIEW)
    config(): ConfigSnapshot {
      return buildConfigSnapshot(this.context.service, this.context.env);
    }
  }
  return ServiceDiagnosticsRpcController;
}
