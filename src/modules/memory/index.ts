export { MemoryModule } from './memory.module';
export { MemoryService } from './memory.service';
export { agentCollections, collectionKey } from './memory-collections';
export type { MemoryCollection } from './memory-collections';
// One agent's memory engine, usable without Nest and without a config: its index, its embedders and the
// chunker that cuts documents. The service above runs one engine per agent; the memory benchmark measures an
// engine on its own, with embedders of its choosing (bench/memory.bench.ts).
export { AgentMemory } from './agent-memory';
export { BundledEmbedder } from './bundled-embedder';
export { StaticEmbedder } from './static-embedder';
export { chunkFile } from './chunker';
export type { Embedder } from './embedder.port';
export type { SearchMode } from './memory-searcher';
export { SqliteMemoryIndex } from './sqlite-memory-index';
