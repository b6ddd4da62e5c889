/** `/console/config.json`, written by the server that hosts the console from its own settings. */
export interface ConsoleConfig {
  /** Present when the platform trusts an OIDC issuer (`JWT_JWKS_URI`) and a console client is set. */
  oidc?: { issuer: string; clientId: string; scope: string; audience?: string };
}

export async function consoleConfig(): Promise<ConsoleConfig> {
  const response = await fetch(`${import.meta.env.BASE_URL}config.json`, { headers: { Accept: 'application/json' } });
  if (!response.ok) return {};
  return (await response.json()) as ConsoleConfig;
}
