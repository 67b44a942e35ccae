export { ExchangeRecorder } from './exchange-recorder';
export type { AgentPairCount } from './exchange-store';
export { SessionToolsModule } from './session-tools.module';
