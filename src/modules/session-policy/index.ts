export { SessionAccessPolicy } from './session-access-policy.service';
export { SessionPolicyModule } from './session-policy.module';
