export { SessionToolsModule } from './session-tools.module';
