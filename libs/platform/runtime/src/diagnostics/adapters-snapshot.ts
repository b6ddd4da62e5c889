import { ApplicationConfig, HttpAdapterHost, LazyModuleLoader, ModuleRef, type ModulesContainer, Reflector } from '@nestjs/core';
import type { AdapterEntry, AdaptersSnapshot, PortLayer } from '@lp/contracts';
import { KeyValueCache, RevisionCounters } from '@lp/platform/cache';
import { EventBus, RpcClient } from '@lp/platform/messaging';
import { classifyAdapter, isUnavailableProxy } from './adapter-classification';
import { RuntimeLicenseProvider } from './runtime-license';

// The ports are abstract classes used as injection tokens, some with protected constructors (RpcClient):
// no constructor type accepts those, so a port is any class.
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type PortToken = Function;

type Env = Readonly<Record<string, string | undefined>>;

/** A port the report lists, and the variable whose value chose its adapter. */
export interface PortDeclaration {
  port: PortToken;
  /** One line naming what chose the adapter, from the service's environment. */
  chosenBy(env: Env): string;
}

const byVariable = (variable: string, unset: string) => (env: Env) => (env[variable]?.trim() ? `${variable} set` : `${variable} unset: ${unset}`);

/**
 * The ports the runtime provides to every service, each chosen by its own variable (ARCHITECTURE.md,
 * Runtime profiles). The runtime license provider is listed apart: it reports its own state.
 */
export const PLATFORM_PORTS: readonly PortDeclaration[] = [
  { port: RpcClient, chosenBy: byVariable('AMQP_URL', 'in-process transport') },
  { port: EventBus, chosenBy: byVariable('AMQP_URL', 'in-process transport') },
  { port: KeyValueCache, chosenBy: byVariable('REDIS_URL', 'in-process LRU') },
  { port: RevisionCounters, chosenBy: byVariable('REDIS_URL', 'in-process counters') },
];

/**
 * A service adds its own ports to the report by providing this token (any module of its app):
 * `{ provide: SERVICE_PORTS, useValue: [{ port: PermissionRequestApprovals, chosenBy: () => 'workflow-engine over RPC' }] }`.
 */
export const SERVICE_PORTS = Symbol('SERVICE_PORTS');

/** Nest's own tokens resolve to internal subclasses (every module has its ModuleRef): framework, not adapters. */
const FRAMEWORK_MODULES = new Set(['InternalCoreModule']);
const FRAMEWORK_TOKENS = new Set<unknown>([ModuleRef, Reflector, HttpAdapterHost, LazyModuleLoader, ApplicationConfig]);

function instanceOf(container: ModulesContainer, token: unknown): unknown {
  for (const module of container.values()) {
    const wrapper = module.providers.get(token as never);
    if (wrapper?.instance !== undefined && wrapper.instance !== null) return wrapper.instance;
  }
  return undefined;
}

function typeName(instance: unknown): string {
  return (typeof instance === 'object' && instance !== null && instance.constructor?.name) || typeof instance;
}

function classified(port: string, layer: PortLayer, instance: unknown, reason: string): AdapterEntry {
  if (instance === undefined)
    return { port, layer, implementation: null, status: 'Unavailable', classifiedBy: 'absent', reason: 'nothing resolves for this port' };
  const implementation = typeName(instance);
  return { port, layer, implementation, status: classifyAdapter(implementation, instance), classifiedBy: 'name-prefix', reason };
}

/**
 * The adapter report of this process (specs/operations.md §2): what resolves for each declared port,
 * classified by its type name, plus ports found in the container but declared nowhere (a class
 * token whose instance is of a subclass: the shape of a port and its adapter), so an unlisted port
 * still shows. Only what resolves is reported; nothing is probed.
 */
export function buildAdaptersSnapshot(input: {
  container: ModulesContainer;
  env: Env;
  servicePorts?: readonly PortDeclaration[];
  license?: RuntimeLicenseProvider;
  now?: Date;
}): AdaptersSnapshot {
  const { container, env } = input;
  const listed = new Set<unknown>();
  const adapters: AdapterEntry[] = [];
  const add = (layer: PortLayer, declarations: readonly PortDeclaration[]) => {
    for (const { port, chosenBy } of declarations) {
      listed.add(port);
      adapters.push(classified(port.name, layer, instanceOf(container, port), chosenBy(env)));
    }
  };
  add('platform', PLATFORM_PORTS);
  adapters.push(licenseEntry(input.license, input.now));
  listed.add(RuntimeLicenseProvider);
  add('service', input.servicePorts ?? []);

  for (const module of container.values()) {
    if (FRAMEWORK_MODULES.has(module.metatype?.name ?? '')) continue;
    for (const [token, wrapper] of module.providers) {
      if (typeof token !== 'function' || listed.has(token) || FRAMEWORK_TOKENS.has(token)) continue;
      const instance: unknown = wrapper.instance;
      if (typeof instance !== 'object' || instance === null || instance.constructor === token || !(instance instanceof token)) continue;
      listed.add(token);
      adapters.push(classified(token.name, 'discovered', instance, `provided by ${module.metatype?.name ?? module.name}`));
    }
  }
  return { adapters };
}

function licenseEntry(license: RuntimeLicenseProvider | undefined, now?: Date): AdapterEntry {
  const port = RuntimeLicenseProvider.name;
  if (!license)
    return { port, layer: 'platform', implementation: null, status: 'Unavailable', classifiedBy: 'absent', reason: 'no runtime license provider registered' };
  const status = license.status(now);
  const implementation = typeName(license);
  if (isUnavailableProxy(license))
    return { port, layer: 'platform', implementation, status: 'Unavailable', classifiedBy: 'self-reported', reason: status.reason };
  return { port, layer: 'platform', implementation, status: status.state, classifiedBy: 'self-reported', reason: status.reason };
}
