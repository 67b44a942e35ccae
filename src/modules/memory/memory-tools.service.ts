import { Injectable, OnModuleInit } from '@nestjs/common';
import { ToolRegistry } from '../runtime';
import { agentIdFromSessionKey } from '../sessions';
import { BUILT_IN_TOOLS } from '../../common/built-in-tools';
import { MEMORY_GET_SCHEMA, MEMORY_SEARCH_SCHEMA, MemoryGetArgs, MemorySearchArgs } from './memory-tool-schemas';
import { MemoryService } from './memory.service';

/**
 * Registers memory_search and memory_get. The agent is always the owner of the calling session, so a tool
 * call can only ever reach that agent's own collections (read-only: there is no memory write tool).
 */
@Injectable()
export class MemoryToolsService implements OnModuleInit {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly memory: MemoryService,
  ) {}

  onModuleInit(): void {
    this.registry.register<MemorySearchArgs>({
      name: BUILT_IN_TOOLS.memorySearch,
      description:
        "Search this agent's memory (MEMORY.md, memory/*.md, and any collections configured for it) by meaning and keywords. " +
        'Returns the best matching passages with their file and line range.',
      parameters: MEMORY_SEARCH_SCHEMA,
      handler: (ctx, args) => this.memory.search(agentIdFromSessionKey(ctx.sessionKey), args),
    });
    this.registry.register<MemoryGetArgs>({
      name: BUILT_IN_TOOLS.memoryGet,
      description: "Read a file (or a range of its lines) from this agent's memory, by a path memory_search returned.",
      parameters: MEMORY_GET_SCHEMA,
      handler: (ctx, args) => this.memory.get(agentIdFromSessionKey(ctx.sessionKey), args),
    });
  }
}
