export { A2aChannelModule } from './a2a-channel.module';
export { mountA2aEndpoint } from './mount-a2a';
