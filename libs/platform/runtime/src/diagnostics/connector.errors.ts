import { DomainError } from '@lp/contracts';

/** A connector whose provider cannot run here (its SDK is not installed): fail closed, retrying will not help until a redeploy. */
export class ConnectorUnavailableError extends DomainError {
  constructor(connector: string, why: string) {
    super('Connector.Unavailable', 503, `The ${connector} connector is unavailable: ${why}.`);
  }
}

/** A connector no provider is configured for. */
export class ConnectorNotConfiguredError extends DomainError {
  constructor(connector: string) {
    super('Connector.NotConfigured', 503, `The ${connector} connector is not configured.`);
  }
}

/** The provider answered with an error or not at all. */
export class ConnectorCallFailedError extends DomainError {
  constructor(connector: string, why: string) {
    super('Connector.CallFailed', 502, `The ${connector} connector call failed: ${why}.`);
  }
}
