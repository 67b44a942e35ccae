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
