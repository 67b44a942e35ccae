export { ConfigPlanModule } from './config-plan.module';
