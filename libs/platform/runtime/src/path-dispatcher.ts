import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

export interface DispatchTarget {
  name: string;
  prefixes: string[];
  handle: RequestListener;
}

/**
 * Routes a request to the app that owns the longest matching path prefix: the standalone profile
 * serves every service on one port without a proxy hop. A prefix matches itself and anything below
 * it (`/api/authorization` matches `/api/authorization/roles`, not `/api/authorizationx`).
 */
export class PathDispatcher {
  private readonly table: Array<{ prefix: string; target: DispatchTarget }>;

  constructor(targets: DispatchTarget[]) {
    const seen = new Map<string, string>();
    this.table = targets
      .flatMap((target) =>
        target.prefixes.map((prefix) => {
          const owner = seen.get(prefix);
          if (owner) throw new Error(`Route prefix ${prefix} is claimed by both ${owner} and ${target.name}`);
          seen.set(prefix, target.name);
          return { prefix, target };
        }),
      )
      .sort((a, b) => b.prefix.length - a.prefix.length);
  }

  resolve(url: string): DispatchTarget | undefined {
    const path = url.split('?')[0] ?? '';
    return this.table.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`))?.target;
  }

  dispatch(req: IncomingMessage, res: ServerResponse, fallback: RequestListener): void {
    const target = this.resolve(req.url ?? '/');
    (target?.handle ?? fallback)(req, res);
  }
}
