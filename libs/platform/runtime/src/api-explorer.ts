import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import express from 'express';
import { methodNotAllowed, onlyReads, routerOf, securityHeaders } from '@lp/platform/http';
import { staticFilesProblem } from './static-files-problem';

export interface ExplorerDocument {
  /** Shown in the document picker. */
  name: string;
  /** Where the OpenAPI document is served, e.g. `/openapi/policy-management.json`. */
  url: string;
}

/** swagger-ui-dist's files (its package directory), resolved once: the explorer serves them as they ship. */
const SWAGGER_UI_ASSETS = dirname(require.resolve('swagger-ui-dist/package.json'));

/**
 * The one `<style>` element Swagger UI inserts (its logo, an inline SVG in the standalone preset's
 * top bar). The page's policy admits exactly this text by its hash; any other inline style stays
 * refused. A Swagger UI release that changes it shows as a policy violation in the explorer's
 * browser spec (apps/e2e/test/console/screens/api-explorer.screen.ts).
 */
const SWAGGER_UI_LOGO_STYLE = '.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}';

/** The explorer page's headers: the platform's, with the logo's style admitted. */
const EXPLORER_PAGE_HEADERS = securityHeaders({
  inlineStyleHashes: [`sha256-${createHash('sha256').update(SWAGGER_UI_LOGO_STYLE).digest('base64')}`],
});

/**
 * Swagger UI at `/docs` over the given OpenAPI documents (a picker when there are several: the
 * standalone process shows every service's). The documents declare bearer auth, so "Authorize" takes
 * a token (the admin token `npm start` prints) and "Try it out" sends it; it stays across reloads.
 * Public like the documents themselves: it shows nothing the documents do not.
 */
export function apiExplorer(documents: ExplorerDocument[]): express.Router {
  const router = express.Router();
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.set(EXPLORER_PAGE_HEADERS).type('html').send(EXPLORER_PAGE);
  });
  const start = explorerScript(documents);
  router.get(EXPLORER_SCRIPT, (_req, res) => {
    res.type('text/javascript').send(start);
  });
  // serve-static would answer another method with a bare 405: the platform's has a problem body.
  router.use('/docs/assets', onlyReads, express.static(SWAGGER_UI_ASSETS, { index: false, fallthrough: false }));
  // A missing asset is a 404 problem like any other unknown path; a malformed path a 400.
  router.use('/docs', staticFilesProblem);
  return router;
}

/**
 * The explorer as a whole Express app, for a server that is not itself an Express app (the
 * standalone), ending as a service app does: a method its paths do not answer is a 405, a path
 * it does not have a 404 problem (not Express's HTML page).
 */
export function apiExplorerApp(documents: ExplorerDocument[]): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(apiExplorer(documents));
  app.use(methodNotAllowed(routerOf(app)));
  app.use((req: express.Request, res: express.Response, next: express.NextFunction) => staticFilesProblem({ status: 404 }, req, res, next));
  return app;
}

/** Swagger UI's start, a file of its own: the page's policy runs no inline script (`securityHeaders`). */
const EXPLORER_SCRIPT = '/docs/explorer.js';

function explorerScript(documents: ExplorerDocument[]): string {
  const [first] = documents;
  const config = {
    dom_id: '#explorer',
    ...(documents.length === 1 && first ? { url: first.url } : { urls: documents, 'urls.primaryName': first?.name }),
    persistAuthorization: true,
    deepLinking: true,
    // Swagger UI would otherwise send each document's URL to validator.swagger.io for a badge.
    validatorUrl: null,
  };
  return `const config = ${JSON.stringify(config)};
window.ui = SwaggerUIBundle(Object.assign(config, {
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: config.urls ? 'StandaloneLayout' : 'BaseLayout',
}));
`;
}

const EXPLORER_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>API explorer</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="explorer"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="${EXPLORER_SCRIPT}"></script>
</body>
</html>
`;
