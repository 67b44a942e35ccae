export { MemoryModule } from './memory.module';
export { agentCollections } from './memory-collections';
export type { MemoryCollection } from './memory-collections';
