import { Controller, Get, INestApplication, MiddlewareConsumer, Module, NestModule, Post, QueryMethod } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import express from 'express';
import request from 'supertest';
import { ProblemDetailsFilter } from '@lp/platform/http';
import { PlatformExpressAdapter } from './platform-express-adapter';

@Controller('cases')
class CasesController {
  @Get()
  list() {
    return [];
  }
  @Post()
  create() {
    return {};
  }
  @QueryMethod('report')
  report() {
    return {};
  }
}

@Module({ controllers: [CasesController], providers: [{ provide: APP_FILTER, useClass: ProblemDetailsFilter }] })
class CasesModule implements NestModule {
  // Nest mounts middleware as a route for every method on every path: it must not hide the 405.
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply((_req: unknown, _res: unknown, next: () => void) => next()).forRoutes('*path');
  }
}

describe('PlatformExpressAdapter: the 405 before Nest 404', () => {
  let app: INestApplication;
  beforeAll(async () => {
    const http = express();
    // A route on the Express app itself, as the OpenAPI document is.
    http.get('/openapi/cases.json', (_req, res) => void res.json({}));
    app = await NestFactory.create(CasesModule, new PlatformExpressAdapter(http), { logger: false });
    await app.init();
  });
  afterAll(() => app.close());

  it('answers a method a Nest route path lacks with 405 and Allow', async () => {
    const res = await request(app.getHttpServer()).delete('/cases').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(res.body).toMatchObject({ code: 'MethodNotAllowed', instance: '/cases' });
    expect((await request(app.getHttpServer()).get('/cases/report').expect(405)).headers.allow).toBe('QUERY');
    expect((await request(app.getHttpServer()).post('/openapi/cases.json').expect(405)).headers.allow).toBe('GET, HEAD');
  });

  it("leaves an unknown path to Nest's 404 through the exception filter, and HEAD to the GET route", async () => {
    const res = await request(app.getHttpServer()).delete('/nothing').expect(404);
    expect(res.body).toMatchObject({ code: 'NotFound', detail: 'Cannot DELETE /nothing' });
    await request(app.getHttpServer()).head('/cases').expect(200);
  });
});
