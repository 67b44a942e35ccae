export { TopologyModule } from './topology.module';
