import { Module } from '@nestjs/common';
import { AgentsAdminService } from './agents-admin.service';
import { AgentsController, BindingsController } from './agents.controller';
import { AgentsService } from './agents.service';

/** Agent registry (from the snapshot), workspaces, and admin CRUD over agents and bindings. */
@Module({
  controllers: [AgentsController, BindingsController],
  providers: [AgentsService, AgentsAdminService],
  exports: [AgentsService],
})
export class AgentsModule {}
