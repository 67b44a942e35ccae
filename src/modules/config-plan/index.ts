export { ConfigPlanModule } from './config-plan.module';
export { ConfigPlanService } from './config-plan.service';
export type { ConfigPlan, PlanCandidateResult, PlanImpact } from './config-plan.service';
export type { PlanCandidate } from './candidate-text';
export { ConfigPlanRequestDto } from './dto/config-plan-request.dto';
export { memoryGrants } from './memory-impact';
export type { MemoryGrant } from './memory-impact';
export { bindingProbe } from './routing-impact';
export { leaveCliEditNote } from './history/cli-edit-note';
