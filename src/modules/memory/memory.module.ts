import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents';
import { RuntimeModule } from '../runtime';
import { SessionsModule } from '../sessions';
import { MemoryController } from './memory.controller';
import { MemoryToolsService } from './memory-tools.service';
import { MemoryService } from './memory.service';

/** Per-agent memory: collections, the built-in hybrid index, memory_search / memory_get, admin endpoints. */
@Module({
  imports: [AgentsModule, RuntimeModule, SessionsModule],
  controllers: [MemoryController],
  providers: [MemoryService, MemoryToolsService],
  exports: [MemoryService],
})
export class MemoryModule {}
