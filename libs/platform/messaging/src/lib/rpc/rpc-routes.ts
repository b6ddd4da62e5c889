/**
 * Which service answers which RPC pattern: keys are pattern prefixes on segment boundaries
 * (`authz` answers `authz.decide` and `authz.audit.query`), values are service names, whose queue
 * is `{service}.rpc`. The longest matching prefix wins, so `authz.audit` could be routed elsewhere.
 */
export type RpcRoutes = Readonly<Record<string, string>>;

/** The fleet's routes (ARCHITECTURE.md, The fleet). Calls to every service (diagnostics) name the service per call. */
export const DEFAULT_RPC_ROUTES: RpcRoutes = {
  authz: 'authz-decision',
  // Policy writes answered by policy-management (longest prefix wins over `authz`).
  'authz.tenant': 'policy-management',
  cases: 'case-management',
};

export class RpcRouter {
  private readonly table: Array<[prefix: string, service: string]>;

  constructor(routes: RpcRoutes = DEFAULT_RPC_ROUTES) {
    this.table = Object.entries(routes).sort(([a], [b]) => b.length - a.length);
  }

  /** The service to ask, or undefined when no route matches and the call names none. */
  serviceFor(pattern: string, explicit?: string): string | undefined {
    if (explicit) return explicit;
    return this.table.find(([prefix]) => pattern === prefix || pattern.startsWith(`${prefix}.`))?.[1];
  }
}
