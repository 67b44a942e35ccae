import type { INestApplication } from '@nestjs/common';
import { PLUGIN_ROUTE_PREFIX, PluginRoutes } from './plugin-routes';

/** Serves plugins' routes at `/plugins/<id>/…`, ahead of the gateway's body parsers (each route reads its own body). */
export function mountPluginRoutes(app: INestApplication): void {
  app.use(PLUGIN_ROUTE_PREFIX, app.get(PluginRoutes).handler);
}
