import { dirname } from 'node:path';
import express from 'express';
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
 * Swagger UI at `/docs` over the given OpenAPI documents (a picker when there are several: the
 * standalone process shows every service's). The documents declare bearer auth, so "Authorize" takes
 * a token (the admin token `npm start` prints) and "Try it out" sends it; it stays across reloads.
 * Public like the documents themselves: it shows nothing the documents do not.
 */
export function apiExplorer(documents: ExplorerDocument[]): express.Router {
  const router = express.Router();
  const page = explorerPage(documents);
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').send(page);
  });
  router.use('/docs/assets', express.static(SWAGGER_UI_ASSETS, { index: false, fallthrough: false }));
  // A missing asset is a 404 problem like any other unknown path; a malformed path a 400.
  router.use('/docs', staticFilesProblem);
  return router;
}

/** The explorer as a whole Express app, for a server that is not itself an Express app (the standalone). */
export function apiExplorerApp(documents: ExplorerDocument[]): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(apiExplorer(documents));
  return app;
}

function explorerPage(documents: ExplorerDocument[]): string {
  const [first] = documents;
  const config = {
    dom_id: '#explorer',
    ...(documents.length === 1 && first ? { url: first.url } : { urls: documents, 'urls.primaryName': first?.name }),
    persistAuthorization: true,
    deepLinking: true,
  };
  // JSON inside a <script>: `<` escaped so no document name can close the tag.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html>
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
  <script>
    const config = ${json};
    window.ui = SwaggerUIBundle(Object.assign(config, {
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: config.urls ? 'StandaloneLayout' : 'BaseLayout',
    }));
  </script>
</body>
</html>
`;
}
