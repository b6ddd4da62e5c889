import type { ConnectorEntry, ConnectorGroup, ConnectorName } from '@lp/contracts';
import { type ConfigDeclaration, type ConfigKeySpec, ConfigValidationError, declareConfig, isBlankConfigValue } from '@lp/platform/config';
import { ExternalConnector, HttpGatewayConnector, PlaywrightCrawlerConnector, TesseractOcrConnector, UnavailableConnector } from './connector-adapters';

type ConnectorConfig = Readonly<Record<string, string | number | boolean | undefined>>;

interface ProviderDefinition {
  /** The npm package the provider's adapter loads; absent for providers that need none. */
  sdkPackage?: string;
  /** Keys (besides the provider key) that must be set for this provider. */
  requires: Array<'BASE_URL' | 'API_KEY'>;
  create(connector: ConnectorName, settings: { baseUrl: string; apiKey: string; timeoutMs: number }, sdk: unknown): ExternalConnector;
}

const httpGateway: ProviderDefinition = {
  requires: ['BASE_URL', 'API_KEY'],
  create: (connector, settings) => new HttpGatewayConnector(connector, settings),
};

interface ConnectorDefinition {
  name: ConnectorName;
  group: ConnectorGroup;
  /** Upper-snake section: its keys are `CONNECTOR_{section}_*`. */
  section: string;
  dependentCapabilities: string[];
  providers: Record<string, ProviderDefinition>;
}

/**
 * The eight connectors (specs/operations.md §2, Connector readiness). Every one offers the `http`
 * provider (JSON over HTTPS to the vendor or an integration gateway); OCR and the crawler also run
 * locally on an SDK the operator installs (`tesseract.js`, `playwright-core`), which this build does
 * not ship: chosen without it, the connector is a fail-closed Unavailable proxy.
 */
export const CONNECTOR_DEFINITIONS: readonly ConnectorDefinition[] = [
  {
    name: 'ElectronicSignature',
    group: 'Legal',
    section: 'ELECTRONIC_SIGNATURE',
    dependentCapabilities: ['contract e-signing', 'workflow signature steps'],
    providers: { http: httpGateway },
  },
  {
    name: 'EnterpriseInfo',
    group: 'Legal',
    section: 'ENTERPRISE_INFO',
    dependentCapabilities: ['counterparty due diligence', 'conflict-of-interest checks'],
    providers: { http: httpGateway },
  },
  {
    name: 'LegalDatabase',
    group: 'Legal',
    section: 'LEGAL_DATABASE',
    dependentCapabilities: ['statute and case-law search', 'citation lookup'],
    providers: { http: httpGateway },
  },
  {
    name: 'Express',
    group: 'Legal',
    section: 'EXPRESS',
    dependentCapabilities: ['court filing dispatch', 'legal document delivery tracking'],
    providers: { http: httpGateway },
  },
  {
    name: 'SfLegalDocument',
    group: 'Legal',
    section: 'SF_LEGAL_DOCUMENT',
    dependentCapabilities: ['judicial document retrieval', 'precedent import into cases'],
    providers: { http: httpGateway },
  },
  {
    name: 'IManage',
    group: 'Tools',
    section: 'IMANAGE',
    dependentCapabilities: ['document management sync', 'matter workspace filing'],
    providers: { http: httpGateway },
  },
  {
    name: 'Ocr',
    group: 'Tools',
    section: 'OCR',
    dependentCapabilities: ['scanned document text extraction', 'evidence indexing'],
    providers: {
      http: httpGateway,
      tesseract: {
        sdkPackage: 'tesseract.js',
        requires: [],
        create: (_c, _s, sdk) => new TesseractOcrConnector(sdk as ConstructorParameters<typeof TesseractOcrConnector>[0]),
      },
    },
  },
  {
    name: 'Crawler',
    group: 'Tools',
    section: 'CRAWLER',
    dependentCapabilities: ['public web evidence capture', 'regulatory update monitoring'],
    providers: {
      http: httpGateway,
      playwright: {
        sdkPackage: 'playwright-core',
        requires: [],
        create: (_c, s, sdk) => new PlaywrightCrawlerConnector(sdk as ConstructorParameters<typeof PlaywrightCrawlerConnector>[0], s.timeoutMs),
      },
    },
  },
];

function sectionSpec(definition: ConnectorDefinition): Record<string, ConfigKeySpec> {
  const prefix = `CONNECTOR_${definition.section}`;
  return {
    [`${prefix}_PROVIDER`]: {
      type: 'string',
      group: `connector:${definition.name}`,
      description: `provider of the ${definition.name} connector (${Object.keys(definition.providers).join(', ')}); unset = NotConfigured`,
      oneOf: Object.keys(definition.providers),
    },
    [`${prefix}_BASE_URL`]: { type: 'url', group: `connector:${definition.name}`, description: `http provider: base URL of the ${definition.name} API` },
    [`${prefix}_API_KEY`]: {
      type: 'string',
      group: `connector:${definition.name}`,
      description: `http provider: API key of the ${definition.name} API`,
      sensitive: true,
      minLength: 16,
    },
    [`${prefix}_TIMEOUT_MS`]: { type: 'int', group: `connector:${definition.name}`, description: 'longest one call may take', default: 10000, min: 100 },
  };
}

/** One declaration per section (all owned by `connectors`), so a broken section disables its connector only. */
const SECTION_CONFIG = new Map<ConnectorName, ConfigDeclaration<Record<string, ConfigKeySpec>>>(
  CONNECTOR_DEFINITIONS.map((d) => [d.name, declareConfig('connectors', sectionSpec(d))]),
);

export type SdkLoader = { available(pkg: string): boolean; load(pkg: string): unknown };

/** Detects an SDK the way Node would load it, without loading it (no network, no side effects). */
export const nodeSdkLoader: SdkLoader = {
  available(pkg) {
    try {
      require.resolve(pkg);
      return true;
    } catch {
      return false;
    }
  },
  load: (pkg) => require(pkg) as unknown,
};

export interface ResolvedConnector {
  entry: ConnectorEntry;
  adapter?: ExternalConnector;
}

/**
 * Picks one connector's adapter from the service's environment, once, at start (hence
 * ChangesRequireRestart). A section whose values do not parse is NotConfigured with the problems
 * as reason rather than a failed boot: an optional integration must not take the platform down.
 */
export function resolveConnector(definition: ConnectorDefinition, env: Readonly<Record<string, string | undefined>>, sdk: SdkLoader): ResolvedConnector {
  const prefix = `CONNECTOR_${definition.section}`;
  const base = {
    connector: definition.name,
    group: definition.group,
    configurationSection: prefix,
    changesRequireRestart: true as const,
    dependentCapabilities: [...definition.dependentCapabilities],
  };
  const notConfigured = (provider: string | null, reason: string): ResolvedConnector => ({
    entry: { ...base, provider, status: 'NotConfigured', adapterRegistered: false, adapterImplementation: null, reason },
  });
  const rawProvider = env[`${prefix}_PROVIDER`];
  const provider = isBlankConfigValue(rawProvider) ? null : (rawProvider?.trim() ?? null);
  const declaration = SECTION_CONFIG.get(definition.name);
  if (!declaration) throw new Error(`no configuration section for connector ${definition.name}`);

  let config: ConnectorConfig;
  try {
    config = declaration.load({ ...env });
  } catch (error) {
    if (error instanceof ConfigValidationError) return notConfigured(provider, error.problems.map((p) => `${p.key} ${p.problem}`).join('; '));
    throw error;
  }
  if (provider === null) return notConfigured(null, `${prefix}_PROVIDER unset`);
  const chosen = definition.providers[provider];
  if (!chosen) return notConfigured(provider, `${prefix}_PROVIDER names no known provider`);
  const missing = chosen.requires.filter((key) => !config[`${prefix}_${key}`]).map((key) => `${prefix}_${key}`);
  if (missing.length > 0) return notConfigured(provider, `provider ${provider} needs ${missing.join(', ')}`);

  if (chosen.sdkPackage && !sdk.available(chosen.sdkPackage)) {
    const why = `provider ${provider} needs the package ${chosen.sdkPackage}, which is not installed`;
    const adapter = new UnavailableConnector(definition.name, why);
    return {
      entry: { ...base, provider, status: 'Unavailable', adapterRegistered: true, adapterImplementation: adapter.constructor.name, reason: why },
      adapter,
    };
  }
  const settings = {
    baseUrl: String(config[`${prefix}_BASE_URL`] ?? ''),
    apiKey: String(config[`${prefix}_API_KEY`] ?? ''),
    timeoutMs: Number(config[`${prefix}_TIMEOUT_MS`]),
  };
  const adapter = chosen.create(definition.name, settings, chosen.sdkPackage ? sdk.load(chosen.sdkPackage) : undefined);
  const reason = `${prefix}_PROVIDER=${provider}${chosen.sdkPackage ? ` (package ${chosen.sdkPackage} installed)` : ''}; no connectivity probe is made`;
  return { entry: { ...base, provider, status: 'Configured', adapterRegistered: true, adapterImplementation: adapter.constructor.name, reason }, adapter };
}

/** Every connector's adapter in this service, chosen at start. */
export class ConnectorRegistry {
  private readonly resolved: ResolvedConnector[];

  constructor(env: Readonly<Record<string, string | undefined>>, sdk: SdkLoader = nodeSdkLoader) {
    this.resolved = CONNECTOR_DEFINITIONS.map((d) => resolveConnector(d, env, sdk));
  }

  entries(): ConnectorEntry[] {
    return this.resolved.map((r) => ({ ...r.entry, dependentCapabilities: [...r.entry.dependentCapabilities] }));
  }

  /** The connector's adapter; undefined when NotConfigured (callers refuse the capability). */
  adapter(name: ConnectorName): ExternalConnector | undefined {
    return this.resolved.find((r) => r.entry.connector === name)?.adapter;
  }
}
