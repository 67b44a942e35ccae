export type { PolicyCheckResultDto } from './dto/policy-check.dto';
export { PolicyCheckService } from './policy-check.service';
export { SessionAccessPolicy } from './session-access-policy.service';
export { SessionPolicyModule } from './session-policy.module';
