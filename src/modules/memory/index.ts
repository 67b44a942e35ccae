export { MemoryModule } from './memory.module';
