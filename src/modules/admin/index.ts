export { ADMIN_HTTP_PATHS, AdminGate } from './admin-gate';
export { AdminModule } from './admin.module';
export { configuredSecretValues } from './configured-secrets';
export { CLIENT_HEADER, swaggerClientHeader } from './request-forgery';
export { undeclaredAdminOperations } from './route-roles';
export { SecretShield } from './secret-shield.service';
