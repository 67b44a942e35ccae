export { planAddAgent, planAddBinding, planDeleteAgent, planSetIdentity, planUnbind } from './agent-edits';
export type { AgentFields, BindingMatchInput } from './agent-edits';
export { AgentsModule } from './agents.module';
export { AgentsService } from './agents.service';
