import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express from 'express';
import { ConfigOf, ConfigValidationError, declareConfig } from '@lp/platform/config/plain';
import { answerMethodNotAllowed, onlyReads, problem, PROBLEM_CONTENT_TYPE, READ_METHODS, securityHeaders } from '@lp/platform/http/plain';
import { correlationIdOf } from '@lp/platform/observability/plain';
import { staticFilesProblem } from './static-files-problem';

/** The admin console's settings (the SPA itself is built by `tools/build-console.mjs`). */
export const consoleHostConfig = declareConfig('console', {
  CONSOLE_DIR: { type: 'string', group: 'console', description: 'the built admin console (npm run build:console)', default: 'dist/console' },
  CONSOLE_OIDC_CLIENT_ID: {
    type: 'string',
    group: 'console',
    description:
      "the console's public OIDC client at JWT_ISSUER (authorization code + PKCE, no secret; redirect URI <console origin>/console/oidc/callback; needs JWT_JWKS_URI); unset = sign-in by pasted token only",
  },
  CONSOLE_OIDC_SCOPE: { type: 'string', group: 'console', description: 'scopes the console asks the issuer for', default: 'openid profile' },
});

export type ConsoleHostConfig = ConfigOf<typeof consoleHostConfig>;

export const CONSOLE_PREFIX = '/console';

/** Where the issuer sends the browser back with the code (register it with the console's client). */
export const CONSOLE_OIDC_CALLBACK_PATH = `${CONSOLE_PREFIX}/oidc/callback`;

/** What `/console/config.json` tells the SPA: only public facts (issuer, public client id). */
export interface ConsoleClientConfig {
  oidc?: { issuer: string; clientId: string; scope: string; audience: string };
}

/**
 * The SPA's settings. Single sign-on is offered when the platform verifies an issuer's tokens
 * (`JWT_JWKS_URI`) and a console client is set; the issuer is `JWT_ISSUER`, the value every token's
 * `iss` must equal, which for an OIDC issuer is its URL (discovery lives below it).
 *
 * A client id the platform cannot honour fails the boot instead of offering a sign-on that cannot
 * work: without `JWT_JWKS_URI` the platform accepts only its own HS256 tokens, and an issuer that is
 * not an https URL (http only on this machine's loopback, for development) cannot be discovered, or
 * would carry codes and tokens in clear.
 */
export function consoleClientConfig(
  config: ConsoleHostConfig,
  identity: { JWT_JWKS_URI?: string; JWT_ISSUER: string; JWT_AUDIENCE: string },
): ConsoleClientConfig {
  if (!config.CONSOLE_OIDC_CLIENT_ID) return {};
  if (!identity.JWT_JWKS_URI) {
    throw new ConfigValidationError('console', [
      {
        key: 'CONSOLE_OIDC_CLIENT_ID',
        problem: "single sign-on needs JWT_JWKS_URI (the issuer's keys); with JWT_SECRET the platform accepts only its own tokens",
      },
    ]);
  }
  const issuerProblem = oidcIssuerProblem(identity.JWT_ISSUER);
  if (issuerProblem) throw new ConfigValidationError('console', [{ key: 'JWT_ISSUER', problem: `with CONSOLE_OIDC_CLIENT_ID set, ${issuerProblem}` }]);
  return { oidc: { issuer: identity.JWT_ISSUER, clientId: config.CONSOLE_OIDC_CLIENT_ID, scope: config.CONSOLE_OIDC_SCOPE, audience: identity.JWT_AUDIENCE } };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why `issuer` cannot be an OIDC issuer identifier (OIDC Discovery §2, RFC 8414 §2), or undefined. */
function oidcIssuerProblem(issuer: string): string | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return `the issuer "${issuer}" must be the issuer's URL`;
  }
  if (url.search || url.hash || issuer.includes('#')) return `the issuer "${issuer}" must have no query or fragment`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return `the issuer "${issuer}" must be an https URL (http only on localhost, for development)`;
}

/**
 * The admin console under `/console`: hashed assets cached for a year, `index.html` for every other
 * path below it (the SPA routes itself), never cached, so a new build is seen on the next load.
 * A missing build is a 503 problem that says how to build it.
 */
export function consoleApp(options: { directory: string; client: ConsoleClientConfig }): express.Express {
  const directory = resolve(options.directory);
  const index = join(directory, 'index.html');
  // The platform's headers (every answer has them already), with the issuer the SPA signs in at.
  const headers = securityHeaders({ issuerOrigin: options.client.oidc ? new URL(options.client.oidc.issuer).origin : undefined });
  const app = express();
  app.disable('x-powered-by');
  app.use(CONSOLE_PREFIX, (_req, res, next) => {
    res.set(headers);
    next();
  });
  app.get(`${CONSOLE_PREFIX}/config.json`, (_req, res) => {
    res.set('Cache-Control', 'no-store').json(options.client);
  });
  // serve-static would answer another method with a bare 405: the platform's has a problem body.
  app.use(
    `${CONSOLE_PREFIX}/assets`,
    onlyReads,
    express.static(join(directory, 'assets'), { index: false, fallthrough: false, immutable: true, maxAge: '365d' }),
  );
  app.get([CONSOLE_PREFIX, `${CONSOLE_PREFIX}/*path`], (req, res) => {
    if (!existsSync(index)) {
      res
        .status(503)
        .type(PROBLEM_CONTENT_TYPE)
        .send(
          problem(503, 'Console.NotBuilt', `The admin console is not built in ${directory}: run npm run build:console.`, {
            correlationId: correlationIdOf(req),
          }),
        );
      return;
    }
    res.set('Cache-Control', 'no-cache').sendFile(index);
  });
  // Every path below /console is a page of the app: read-only.
  app.use(CONSOLE_PREFIX, (req: express.Request, res: express.Response) => answerMethodNotAllowed(req, res, READ_METHODS));
  app.use(staticFilesProblem);
  return app;
}
