import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { CONFIG_DEFAULTS } from '../config-defaults';
import { Default, Describe, StrictObject } from './schema-decorators';

export const STATE_BACKENDS = ['sqlite', 'postgres'] as const;
export type StateBackend = (typeof STATE_BACKENDS)[number];

@StrictObject(
  'Where durable state lives (docs/deploy.md): embedded SQLite in the state dir, or a shared PostgreSQL for replicas. Restart needed.',
)
export class GatewayStateConfig {
  @IsOptional()
  @IsIn(STATE_BACKENDS)
  @Describe('sqlite: files in the state dir (one process); postgres: A2A tasks and sessions in the database at `url`. Restart needed.')
  @Default(CONFIG_DEFAULTS.gateway.state.backend)
  backend?: StateBackend;

  @IsOptional()
  @IsString()
  // The scheme alone is checked here; the rest is what the pg driver parses (host, port, user, password, database).
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// or postgresql:// connection URL' })
  @MaxLength(2048)
  @Describe('The PostgreSQL connection URL, required with backend "postgres"; a secret: use "${DATABASE_URL}". Restart needed.')
  url?: string;
}
