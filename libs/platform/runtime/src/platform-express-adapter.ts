import { ExpressAdapter } from '@nestjs/platform-express';
import { methodNotAllowed, routerOf } from '@lp/platform/http';

/**
 * Nest's Express adapter with the 405 in front of Nest's 404: Nest registers its not-found handler
 * once every route is on the app, so the handler added here is the last thing a request no route
 * took meets before it, and sees every route of the app (the API explorer's and the OpenAPI
 * document's included).
 */
export class PlatformExpressAdapter extends ExpressAdapter {
  override setNotFoundHandler(...args: Parameters<ExpressAdapter['setNotFoundHandler']>): unknown {
    this.use(methodNotAllowed(routerOf(this.getInstance())));
    return super.setNotFoundHandler(...args);
  }
}
