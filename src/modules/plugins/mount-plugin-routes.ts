import type { INestApplication } from '@nestjs/common';
import { PLUGIN_ROUTE_PREFIX, PluginRoutes } from './plugin-routes';

/**
 * Serves plugins' routes at `/plugins/<id>/…`, and bundled plugins' absolute paths, ahead of the gateway's body
 * parsers (each route reads its own body).
 */
export function mountPluginRoutes(app: INestApplication): void {
  const routes = app.get(PluginRoutes);
  app.use(routes.absoluteHandler);
  app.use(PLUGIN_ROUTE_PREFIX, routes.handler);
}
