export { ExchangeRecorder } from './exchange-recorder';
export type { AgentPairCount } from './exchange-store.port';
export { SessionToolsModule } from './session-tools.module';
export { SessionsSendService } from './sessions-send.service';
