export { HealthModule } from './health.module';
export { METRICS_SECURITY } from './health.controller';
