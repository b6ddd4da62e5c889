import { z } from 'zod';
import { rpcContract } from '../messaging/rpc-contract';

/**
 * What every service answers about itself for the operations diagnostics (specs/operations.md §1,
 * "Four read-only queries", and §2): snapshots of the answering process, rebuilt at each call,
 * never a health verdict.
 */

/** One Nest module of the process and the modules it imports directly. */
export interface GovernanceModule {
  name: string;
  imports: string[];
}

export interface GovernanceSnapshot {
  /** Registered modules, sorted by name (the total is `modules.length`). */
  modules: GovernanceModule[];
  /** One message per dependency a module declares but the container could not resolve. */
  missingDependencies: string[];
  hasCircularDependencies: boolean;
  /** Each cycle as the names of its modules (a strongly connected component, or a module importing itself). */
  cycles: string[][];
  /** The dependency graph in Mermaid syntax (`graph TD`). */
  graph: string;
}

/** Status of an adapter by its implementation's type-name prefix (the spec's table, see the diagnostics doc for its extension). */
export type AdapterStatus = 'Unavailable' | 'Default' | 'Production' | 'Production (Local)' | 'Unknown';

/** The six states the runtime license provider reports about itself (it is not classified by name). */
export type RuntimeLicenseState = 'Unlicensed' | 'Valid' | 'ExpiringSoon' | 'GracePeriod' | 'Expired' | 'Invalid';
export const RUNTIME_LICENSE_STATES: readonly RuntimeLicenseState[] = ['Unlicensed', 'Valid', 'ExpiringSoon', 'GracePeriod', 'Expired', 'Invalid'];

/** Where a port is declared: by the runtime for every service, by the service itself, or found in the container unlisted. */
export type PortLayer = 'platform' | 'service' | 'discovered';

export interface AdapterEntry {
  /** The port's name (its injection token). */
  port: string;
  layer: PortLayer;
  /** Type name of what resolves; null when nothing does. */
  implementation: string | null;
  status: AdapterStatus | RuntimeLicenseState;
  /** `name-prefix`: by the table; `self-reported`: the license provider's own state; `absent`: nothing resolves. */
  classifiedBy: 'name-prefix' | 'self-reported' | 'absent';
  /** One line: which variable chose the adapter, or why the state is what it is. */
  reason: string;
}

export interface AdaptersSnapshot {
  adapters: AdapterEntry[];
}

export const CONNECTOR_NAMES = ['ElectronicSignature', 'EnterpriseInfo', 'LegalDatabase', 'Express', 'SfLegalDocument', 'IManage', 'Ocr', 'Crawler'] as const;
export type ConnectorName = (typeof CONNECTOR_NAMES)[number];
export type ConnectorGroup = 'Legal' | 'Tools';
export type ConnectorStatus = 'Configured' | 'NotConfigured' | 'Unavailable';

export interface ConnectorEntry {
  connector: ConnectorName;
  group: ConnectorGroup;
  /** The configured provider; null when none is. */
  provider: string | null;
  status: ConnectorStatus;
  adapterRegistered: boolean;
  adapterImplementation: string | null;
  /** Name of the configuration section (its keys share the prefix `CONNECTOR_{SECTION}_`). */
  configurationSection: string;
  /** Always true: connectors are chosen once, when the service starts. */
  changesRequireRestart: true;
  dependentCapabilities: string[];
  /** One line: why the status is what it is (no connectivity probe is made). */
  reason: string;
}

export interface ConnectorsSnapshot {
  connectors: ConnectorEntry[];
}

export type ConfigKeyReportStatus = 'missing' | 'too-short' | 'configured';

/** One declared key as the service reads it: a value-shape check; a secret shows only its length. */
export interface ConfigKeyReport {
  key: string;
  owner: string;
  group: string;
  description: string;
  required: boolean;
  sensitive: boolean;
  status: ConfigKeyReportStatus;
  source?: 'env' | 'default';
  length?: number;
  /** Only for non-sensitive keys (a URL's password masked). */
  value?: string;
}

export interface ConfigSnapshot {
  keys: ConfigKeyReport[];
}

const empty = z.strictObject({});

/** One pattern per report, each answered by every service on its own queue (`operations.diagnostics.view`). */
export const DiagnosticsRpc = {
  governance: (service: string) => rpcContract<GovernanceSnapshot>()({ pattern: 'service.diagnostics.governance', service, payload: empty }),
  adapters: (service: string) => rpcContract<AdaptersSnapshot>()({ pattern: 'service.diagnostics.adapters', service, payload: empty }),
  connectors: (service: string) => rpcContract<ConnectorsSnapshot>()({ pattern: 'service.diagnostics.connectors', service, payload: empty }),
  config: (service: string) => rpcContract<ConfigSnapshot>()({ pattern: 'service.diagnostics.config', service, payload: empty }),
} as const;

export type DiagnosticsReportKind = keyof typeof DiagnosticsRpc;
