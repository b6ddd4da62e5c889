import { INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestMicroservice } from '@nestjs/microservices';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import express from 'express';
import { requireJsonContent, routerOf } from '@lp/platform/http';
import { answerBaseline } from './answer-baseline';
import { apiExplorer } from './api-explorer';
import { rpcServerOptions } from './infrastructure.module';
import { PlatformExpressAdapter } from './platform-express-adapter';
import { applyRpcEnhancers } from './rpc-enhancers';
import { PlatformRuntime } from './platform-runtime';
import { ServiceDefinition } from './service-definition';
import { ServiceHostModule } from './service-host.module';

export interface ServiceApp {
  definition: ServiceDefinition;
  app: INestApplication;
  /** The Express instance serving the app's routes (the standalone dispatches into it). */
  http: express.Express;
  openApi: OpenAPIObject;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query']);

/** Request bodies are JSON documents of modest size; anything larger is a 413 problem. */
const JSON_BODY_LIMIT = '1mb';

function httpOperations(document: OpenAPIObject): number {
  return Object.values(document.paths).reduce((sum, item) => sum + Object.keys(item).filter((key) => HTTP_METHODS.has(key)).length, 0);
}

export function openApiPath(service: ServiceDefinition): string {
  return `/openapi/${service.name}.json`;
}

/**
 * Builds one service as a hybrid Nest application, initialized but not listening: HTTP routes on
 * its own Express instance, plus its RPC server on the runtime's transport with the global
 * enhancers that apply to RPC messages (`applyRpcEnhancers`).
 */
export async function createServiceApp(service: ServiceDefinition, runtime: PlatformRuntime): Promise<ServiceApp> {
  const startedAt = performance.now();
  const http = express();
  http.disable('x-powered-by');
  // Before anything can fail: every answer, a body parser's 400 included, carries the correlation id
  // and the security headers.
  http.use(answerBaseline);
  // Content the parser would skip (text/plain, no Content-Type) is a 415, not a body read as missing.
  http.use(requireJsonContent(routerOf(http)));
  // Nest's own JSON parser is skipped when one is registered already (it checks by name).
  http.use(express.json({ limit: JSON_BODY_LIMIT }));
  // A known path asked with a method it does not answer is a 405 (the adapter puts it before the 404).
  const app = await NestFactory.create(ServiceHostModule.forRoot(service, runtime), new PlatformExpressAdapter(http), {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(runtime.logging.logger);
  // Nest binds handlers (and so their global enhancers) when it registers the listeners, which
  // connectMicroservice does at once unless deferred: defer, add the RPC enhancers, then finish as
  // Nest's undeferred path does (the hybrid app runs the lifecycle hooks for the shared container).
  const rpc = app.connectMicroservice(rpcServerOptions(service, runtime), { inheritAppConfig: false, deferInitialization: true });
  if (!(rpc instanceof NestMicroservice)) throw new Error('connectMicroservice did not return a NestMicroservice');
  applyRpcEnhancers(rpc, app, service.authorization.guard);
  rpc.registerListeners();
  rpc.setIsInitialized(true);
  rpc.setIsInitHookCalled(true);

  const openApi = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle(service.openApi.title)
      .setDescription(service.openApi.description)
      .setVersion('1')
      .setOpenAPIVersion(service.openApi.openApiVersion ?? '3.0.0')
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
      .build(),
  );
  // Registered on Express before Nest's own routes and 404 handler: the document is public.
  http.get(openApiPath(service), (_req, res) => {
    res.json(openApi);
  });
  http.use(apiExplorer([{ name: service.name, url: openApiPath(service) }]));

  await app.startAllMicroservices();
  await app.init();
  // The one start-up line of a service (Nest's per-module and per-route lines are at debug).
  new Logger('ServiceApp').log(`${service.name} started in ${Math.round(performance.now() - startedAt)} ms (${httpOperations(openApi)} HTTP operations)`);
  return { definition: service, app, http, openApi };
}
