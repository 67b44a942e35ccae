import { Module } from '@nestjs/common';
import { AdminModule } from '../admin';
import { RuntimeModule } from '../runtime';
import { PluginHost } from './plugin-host.service';
import { PluginRoutes } from './plugin-routes';
import { PluginsAdminController } from './plugins-admin.controller';

/** Plugins' code at run time: loading, the api, isolation, their routes, and `/admin/plugins` (docs/plugins.md). */
@Module({
  imports: [RuntimeModule, AdminModule],
  controllers: [PluginsAdminController],
  providers: [PluginHost, PluginRoutes],
  exports: [PluginHost],
})
export class PluginsModule {}
