import { DynamicModule, Module } from '@nestjs/common';
import type { PlatformRuntime } from '../platform-runtime';
import type { ServiceDefinition } from '../service-definition';
import { ConnectorRegistry } from './connector-catalog';
import { Ed25519RuntimeLicenseProvider, RuntimeLicenseProvider } from './runtime-license';
import { DIAGNOSTICS_CONTEXT, DiagnosticsContext, serviceDiagnosticsRpcController } from './service-diagnostics.rpc-controller';

/**
 * What the runtime adds to every service for the operations diagnostics: the runtime license
 * provider and the connectors (both chosen once from the service's environment, and global so a
 * feature can use them), and the RPC handlers answering the four reports.
 */
@Module({})
export class RuntimeDiagnosticsModule {
  static forService(service: ServiceDefinition, runtime: PlatformRuntime): DynamicModule {
    const context: DiagnosticsContext = { service: service.name, env: runtime.env };
    return {
      module: RuntimeDiagnosticsModule,
      global: true,
      controllers: [serviceDiagnosticsRpcController(service.authorization)],
      providers: [
        { provide: DIAGNOSTICS_CONTEXT, useValue: context },
        { provide: RuntimeLicenseProvider, useFactory: () => new Ed25519RuntimeLicenseProvider(runtime.env) },
        { provide: ConnectorRegistry, useFactory: () => new ConnectorRegistry(runtime.env) },
      ],
      exports: [RuntimeLicenseProvider, ConnectorRegistry],
    };
  }
}
