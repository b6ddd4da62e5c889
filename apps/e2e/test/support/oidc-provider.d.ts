/**
 * The part of oidc-provider (panva, v9, ESM, no bundled types) the console's single sign-on spec and
 * the MCP gateway's audience spec use. `@types/oidc-provider` would replace this.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type Configuration = Record<string, unknown>;

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export const errors: { InvalidTarget: new (description?: string) => Error };
}
