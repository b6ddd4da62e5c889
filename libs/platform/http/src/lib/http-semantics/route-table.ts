import { METHODS, type IncomingMessage } from 'node:http';

/** What this module reads of an Express 5 router (the `router` package): its layers, in order. */
interface RouterLayer {
  /** Set on a layer that is a route (`app.get(path, ...)`, a Nest handler): the methods it answers. */
  route?: { methods: Record<string, boolean | undefined> };
  handle: unknown;
  /** The matched part of the path, or false; throws on a malformed escape in a parameter. */
  match(path: string): { path: string } | false;
}

export interface ExpressRouter {
  stack: RouterLayer[];
}

/** The order methods are listed in `Allow`: the usual reading order, then any other alphabetically. */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'QUERY'];

/**
 * A route for every method Node knows (`app.all`, which Express 5 registers method by method, and
 * how Nest mounts its middleware) is a pass-through or a catch-all, not a resource with methods.
 */
function answersEveryMethod(methods: Record<string, boolean | undefined>): boolean {
  return methods._all === true || METHODS.every((method) => methods[method.toLowerCase()]);
}

function isRouter(handle: unknown): handle is ExpressRouter {
  return typeof handle === 'function' && Array.isArray((handle as { stack?: unknown }).stack);
}

function matchOf(layer: RouterLayer, path: string): { path: string } | false {
  try {
    return layer.match(path);
  } catch {
    // A malformed escape: Express's own routing answers it (400); it names no resource here.
    return false;
  }
}

function collect(router: ExpressRouter, path: string, into: Set<string>): void {
  for (const layer of router.stack) {
    const match = matchOf(layer, path);
    if (!match) continue;
    if (layer.route) {
      if (answersEveryMethod(layer.route.methods)) continue;
      for (const [method, on] of Object.entries(layer.route.methods)) if (on) into.add(method.toUpperCase());
    } else if (isRouter(layer.handle)) {
      // A router mounted with `use` (the API explorer's): its routes are relative to the mount point.
      const rest = path.slice(match.path.length);
      collect(layer.handle, rest.startsWith('/') ? rest : `/${rest}`, into);
    }
  }
}

/**
 * The methods the routes of an Express app (or router) answer for `path`, in `Allow` order, HEAD
 * wherever GET is (Express answers HEAD with the GET route); empty when no route matches the path,
 * whatever the method. Middleware is not a route, nor is a route for every method: a path only
 * they serve (a static directory) is not listed here.
 */
export function methodsAt(router: ExpressRouter, path: string): string[] {
  const methods = new Set<string>();
  collect(router, path, methods);
  if (methods.has('GET')) methods.add('HEAD');
  const rank = (method: string) => (ORDER.includes(method) ? ORDER.indexOf(method) : ORDER.length);
  return [...methods].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The app's router (Express 5 `app.router`, created on first access). */
export function routerOf(app: { router: unknown }): ExpressRouter {
  return app.router as ExpressRouter;
}

/** The request's path as Express routes it (still percent-encoded), whatever mount point it went through. */
export function requestPath(req: IncomingMessage & { originalUrl?: string }): string {
  return (req.originalUrl ?? req.url ?? '/').split(/[?#]/)[0] || '/';
}
