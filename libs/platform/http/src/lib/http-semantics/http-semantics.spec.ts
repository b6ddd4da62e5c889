import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { methodNotAllowed, onlyReads } from './method-not-allowed';
import { methodsAt, routerOf } from './route-table';
import { requireJsonContent } from './unsupported-media-type';

/**
 * An Express app shaped like a service app: the 415 check in front of the JSON parser, a
 * pass-through for every method on every path (how Nest mounts its middleware), routes, a mounted
 * router (the API explorer's), a read-only static subtree, the 405 and then the 404.
 */
function serviceLikeApp() {
  const app = express();
  app.use(requireJsonContent(routerOf(app)));
  app.use(express.json());
  app.all('*path', (_req, _res, next) => next());
  app.get('/things', (_req, res) => void res.json([]));
  app.post('/things', (req, res) => void res.status(201).json({ got: req.body as unknown }));
  app.get('/things/:id', (req, res) => void res.json({ id: req.params.id }));
  app.delete('/things/:id', (_req, res) => void res.status(204).end());
  // Express 5 has a helper for every method Node knows (QUERY included); its types mark this one optional.
  app.query!('/reports/:name', (req, res) => void res.json({ query: req.body as unknown }));
  const docs = express.Router();
  docs.get(['/docs', '/docs/'], (_req, res) => void res.type('html').send('<p>docs</p>'));
  docs.use('/docs/assets', onlyReads, (_req, res) => void res.type('css').send('p{}'));
  app.use(docs);
  app.use(methodNotAllowed(routerOf(app)));
  app.use((_req, res) => void res.status(404).json({ code: 'NotFound' }));
  return app;
}

/** supertest makes a helper for every method Node knows (QUERY included) but types only the common ones. */
function sendQuery(app: express.Express, url: string): request.Test {
  return (request(app) as unknown as Record<'query', (url: string) => request.Test>).query(url);
}

/** The status of a POST /things whose content is sent in chunks (no Content-Length), as Node sends a stream. */
async function chunkedStatus(app: express.Express, type: string): Promise<number> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await new Promise<number>((resolve, reject) => {
      const req = httpRequest({
        port: (server.address() as AddressInfo).port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/things',
        headers: { 'Content-Type': type },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{"a":');
      req.end('1}');
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('the route table of an Express app', () => {
  const app = serviceLikeApp();

  it('lists the methods the routes of a path answer, HEAD with GET, in Allow order', () => {
    expect(methodsAt(routerOf(app), '/things')).toEqual(['GET', 'HEAD', 'POST']);
    expect(methodsAt(routerOf(app), '/things/42')).toEqual(['GET', 'HEAD', 'DELETE']);
    expect(methodsAt(routerOf(app), '/reports/trends')).toEqual(['QUERY']);
  });

  it('reads a mounted router and ignores pass-throughs for every method and plain middleware', () => {
    expect(methodsAt(routerOf(app), '/docs')).toEqual(['GET', 'HEAD']);
    expect(methodsAt(routerOf(app), '/docs/assets/a.css')).toEqual([]);
    expect(methodsAt(routerOf(app), '/nowhere')).toEqual([]);
  });

  it('names no method for a path with a malformed escape instead of throwing', () => {
    expect(methodsAt(routerOf(app), '/things/%E0%A4%A')).toEqual([]);
  });
});

describe('405 for a known path asked with a method it does not answer', () => {
  const app = serviceLikeApp();

  it('answers problem+json with Allow listing the methods of the path', async () => {
    const res = await request(app).delete('/things').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 405, code: 'MethodNotAllowed', instance: '/things', correlationId: expect.any(String) });
    expect((await request(app).put('/things/42?x=1').expect(405)).headers.allow).toBe('GET, HEAD, DELETE');
    expect((await request(app).options('/reports/trends').expect(405)).headers.allow).toBe('QUERY');
  });

  it('leaves unknown paths to the 404 and served methods alone', async () => {
    expect((await request(app).delete('/nowhere').expect(404)).body).toEqual({ code: 'NotFound' });
    await request(app).get('/things').expect(200);
    await request(app).head('/things/42').expect(200);
    await request(app).delete('/things/42').expect(204);
  });

  it('covers a mounted router and a read-only static subtree', async () => {
    expect((await request(app).post('/docs').expect(405)).headers.allow).toBe('GET, HEAD');
    const asset = await request(app).delete('/docs/assets/a.css').expect(405);
    expect([asset.headers.allow, asset.body.code]).toEqual(['GET, HEAD', 'MethodNotAllowed']);
    await request(app).head('/docs/assets/a.css').expect(200);
  });
});

describe('415 for content a JSON route cannot read', () => {
  const app = serviceLikeApp();

  it.each([
    ['text/plain', 'hello'],
    ['application/x-www-form-urlencoded', 'a=1'],
    ['application/merge-patch+json', '{}'],
    ['application/jsonx', '{}'],
  ])('answers %s content on a POST route with UnsupportedMediaType', async (type, body) => {
    const res = await request(app).post('/things').set('Content-Type', type).send(body).expect(415);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['accept-post']).toBe('application/json');
    expect(res.body).toMatchObject({ status: 415, code: 'UnsupportedMediaType', instance: '/things', correlationId: expect.any(String) });
    expect(res.body.detail).toContain(type);
  });

  it('answers content without a Content-Type, chunked or not, and a QUERY body that is not JSON', async () => {
    const untyped = await request(app).post('/things').unset('Content-Type').send(Buffer.from('{"a":1}')).expect(415);
    expect(untyped.body.detail).toContain('no Content-Type');
    expect(await chunkedStatus(app, 'text/plain')).toBe(415);
    expect(await chunkedStatus(app, 'application/json')).toBe(201);
    const query = await sendQuery(app, '/reports/trends').set('Content-Type', 'text/plain').send('{"From":"x"}');
    expect([query.status, query.body.code]).toEqual([415, 'UnsupportedMediaType']);
  });

  it('reads JSON (any case, with a UTF-8 charset) and empty requests as before', async () => {
    expect((await request(app).post('/things').send({ a: 1 }).expect(201)).body).toEqual({ got: { a: 1 } });
    await request(app).post('/things').set('Content-Type', 'Application/JSON; charset=utf-8').send('{"a":1}').expect(201);
    await request(app).post('/things').expect(201);
    await request(app).post('/things').set('Content-Type', 'text/plain').send('').expect(201);
  });

  it('leaves unknown paths to the 404, other methods to the 405, and ignores content on a DELETE', async () => {
    await request(app).post('/nowhere').set('Content-Type', 'text/plain').send('x').expect(404);
    expect((await request(app).put('/things').set('Content-Type', 'text/plain').send('x').expect(405)).headers.allow).toBe('GET, HEAD, POST');
    await request(app).delete('/things/42').set('Content-Type', 'text/plain').send('x').expect(204);
  });
});
