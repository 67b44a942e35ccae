import express from 'express';
import request from 'supertest';
import type { PluginHttpRoute } from '../../plugin-sdk';
import type { AdminGate } from '../admin';
import type { AuthRefusals } from '../metrics';
import { PluginRoutes } from './plugin-routes';

/** A bundled plugin's absolute routes: served at their own path, one owner per path and method, gone on unload. */
describe('PluginRoutes: absolute paths', () => {
  const refused: string[] = [];
  const routes = new PluginRoutes({} as AdminGate, { refused: (edge: string) => refused.push(edge) } as unknown as AuthRefusals);
  const app = express();
  app.use(routes.absoluteHandler);
  app.use((_req, res) => void res.status(418).end('not a plugin route'));

  const route = (text: string): PluginHttpRoute => ({
    method: 'POST',
    path: '/channels/x/messages',
    absolute: true,
    auth: 'public',
    handle: () => ({ body: { text } }),
  });

  afterEach(() => {
    routes.remove('x');
    routes.remove('other');
  });

  it('serves the path itself, answers 405 for another method, and leaves every other path alone', async () => {
    routes.set('x', [route('from x')]);
    expect((await request(app).post('/channels/x/messages').send({}).expect(200)).body).toEqual({ text: 'from x' });
    expect((await request(app).get('/channels/x/messages').expect(405)).headers.allow).toBe('POST');
    await request(app).post('/channels/x/messages/more').expect(418);
    await request(app).post('/plugins/x/channels/x/messages').expect(418);
  });

  it('refuses a path another plugin serves, and frees it when that plugin unloads', async () => {
    routes.set('x', [route('from x')]);
    expect(() => routes.set('other', [route('from other')])).toThrow('route POST /channels/x/messages is already served by plugin x');
    routes.remove('x');
    await request(app).post('/channels/x/messages').expect(418);
    routes.set('other', [route('from other')]);
    expect((await request(app).post('/channels/x/messages').expect(200)).body).toEqual({ text: 'from other' });
  });

  it('a refused credential of the http plugin counts at the http edge', async () => {
    const { AppError, ErrorCode } = await import('../../plugin-sdk');
    routes.set('http', [
      {
        ...route(''),
        path: '/channels/http/messages',
        challenge: 'Bearer realm="clawgate http channel"',
        handle: () => {
          throw new AppError(ErrorCode.Unauthenticated, 'a valid bearer token is required');
        },
      },
    ]);
    const res = await request(app).post('/channels/http/messages').expect(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="clawgate http channel"');
    expect(refused).toEqual(['http']);
    routes.remove('http');
  });
});

/** A bundled plugin's prefix route (`/x/*`, any method) and a route's errors in its own shape. */
describe('PluginRoutes: prefix paths and errorResponse', () => {
  const routes = new PluginRoutes({} as AdminGate, { refused: () => undefined } as unknown as AuthRefusals);
  const app = express();
  app.use(routes.absoluteHandler);
  app.use((_req, res) => void res.status(418).end('not a plugin route'));

  afterEach(() => routes.remove('api'));

  it('serves the prefix and everything below it for every method, the whole path given, and nothing beside it', async () => {
    routes.set('api', [
      { method: '*', path: '/api/*', absolute: true, auth: 'public', handle: (req) => ({ body: { method: req.method, path: req.path } }) },
    ]);
    expect((await request(app).get('/api').expect(200)).body).toEqual({ method: 'GET', path: '/api' });
    expect((await request(app).delete('/api/a/b').expect(200)).body).toEqual({ method: 'DELETE', path: '/api/a/b' });
    await request(app).get('/apis').expect(418);
    await request(app).get('/other/api').expect(418);
  });

  it('answers what the route throws and the gateway refuses in the shape errorResponse gives, with the gateway headers', async () => {
    const { AppError, ErrorCode } = await import('../../plugin-sdk');
    routes.set('api', [
      {
        method: 'POST',
        path: '/api/*',
        absolute: true,
        auth: 'public',
        challenge: 'Bearer realm="api"',
        parseBody: false,
        errorResponse: (error) => ({ headers: { 'x-own': '1' }, body: { own: { code: error.code, message: error.message } } }),
        precheck: (req) => {
          if (req.path === '/api/locked') throw new AppError(ErrorCode.Unauthenticated, 'no key');
        },
        handle: (req) => {
          if (req.path === '/api/boom') throw new Error('internal detail');
          return { body: { bytes: req.rawBody.length, parsed: req.body ?? null } };
        },
      },
    ]);
    const locked = await request(app).post('/api/locked').expect(401);
    expect(locked.headers['www-authenticate']).toBe('Bearer realm="api"');
    expect(locked.headers['x-own']).toBe('1');
    expect(locked.body).toEqual({ own: { code: 'UNAUTHENTICATED', message: 'no key' } });
    const boom = await request(app).post('/api/boom').expect(500);
    expect(boom.body).toEqual({ own: { code: 'INTERNAL', message: 'The request could not be processed.' } });
    const raw = await request(app).post('/api/echo').set('Content-Type', 'application/json').send('{"broken":').expect(200);
    expect(raw.body).toEqual({ bytes: 10, parsed: null });
    const large = await request(app)
      .post('/api/echo')
      .send('x'.repeat(1024 * 1024 + 1))
      .expect(413);
    expect(large.body.own.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
