import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express from 'express';
import { ConfigOf, declareConfig } from '@lp/platform/config';
import { problem, PROBLEM_CONTENT_TYPE } from '@lp/platform/http';
import { staticFilesProblem } from './static-files-problem';

/** The admin console's settings (the SPA itself is built by `tools/build-console.mjs`). */
export const consoleHostConfig = declareConfig('console', {
  CONSOLE_DIR: { type: 'string', group: 'console', description: 'the built admin console (npm run build:console)', default: 'dist/console' },
  CONSOLE_OIDC_CLIENT_ID: {
    type: 'string',
    group: 'console',
    description: "the console's public OIDC client at JWT_ISSUER (authorization code + PKCE); unset = sign-in by pasted token only",
  },
  CONSOLE_OIDC_SCOPE: { type: 'string', group: 'console', description: 'scopes the console asks the issuer for', default: 'openid profile' },
});

export type ConsoleHostConfig = ConfigOf<typeof consoleHostConfig>;

export const CONSOLE_PREFIX = '/console';

/** What `/console/config.json` tells the SPA: only public facts (issuer, public client id). */
export interface ConsoleClientConfig {
  oidc?: { issuer: string; clientId: string; scope: string; audience: string };
}

export function consoleClientConfig(
  config: ConsoleHostConfig,
  identity: { JWT_JWKS_URI?: string; JWT_ISSUER: string; JWT_AUDIENCE: string },
): ConsoleClientConfig {
  if (!identity.JWT_JWKS_URI || !config.CONSOLE_OIDC_CLIENT_ID) return {};
  return { oidc: { issuer: identity.JWT_ISSUER, clientId: config.CONSOLE_OIDC_CLIENT_ID, scope: config.CONSOLE_OIDC_SCOPE, audience: identity.JWT_AUDIENCE } };
}

/**
 * The console's security headers. The SPA talks to the platform's own origin and to the OIDC
 * issuer only; nothing frames it; no inline script runs.
 */
function securityHeaders(client: ConsoleClientConfig): Record<string, string> {
  const issuer = client.oidc ? ` ${new URL(client.oidc.issuer).origin}` : '';
  return {
    'Content-Security-Policy': `default-src 'self'; connect-src 'self'${issuer}; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'${issuer}`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
  };
}

/**
 * The admin console under `/console`: hashed assets cached for a year, `index.html` for every other
 * path below it (the SPA routes itself), never cached, so a new build is seen on the next load.
 * A missing build is a 503 problem that says how to build it.
 */
export function consoleApp(options: { directory: string; client: ConsoleClientConfig }): express.Express {
  const directory = resolve(options.directory);
  const index = join(directory, 'index.html');
  const headers = securityHeaders(options.client);
  const app = express();
  app.disable('x-powered-by');
  app.use(CONSOLE_PREFIX, (_req, res, next) => {
    res.set(headers);
    next();
  });
  app.get(`${CONSOLE_PREFIX}/config.json`, (_req, res) => {
    res.set('Cache-Control', 'no-store').json(options.client);
  });
  app.use(`${CONSOLE_PREFIX}/assets`, express.static(join(directory, 'assets'), { index: false, fallthrough: false, immutable: true, maxAge: '365d' }));
  app.get([CONSOLE_PREFIX, `${CONSOLE_PREFIX}/*path`], (req, res) => {
    if (!existsSync(index)) {
      res
        .status(503)
        .type(PROBLEM_CONTENT_TYPE)
        .send(problem(503, 'Console.NotBuilt', `The admin console is not built in ${directory}: run npm run build:console.`));
      return;
    }
    res.set('Cache-Control', 'no-cache').sendFile(index);
  });
  app.use(CONSOLE_PREFIX, (req: express.Request, res: express.Response) => {
    res
      .status(405)
      .type(PROBLEM_CONTENT_TYPE)
      .send(problem(405, 'MethodNotAllowed', `The console answers GET only, not ${req.method}.`));
  });
  app.use(staticFilesProblem);
  return app;
}
