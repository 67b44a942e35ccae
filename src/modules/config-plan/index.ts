export { ConfigPlanModule } from './config-plan.module';
export type { ConfigPlan, PlanImpact } from './config-plan.service';
export { leaveCliEditNote } from './history/cli-edit-note';
