import { IsDefined, IsNumber, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { Describe, StrictObject } from './schema-decorators';

/** `run`, `day`, `month` (UTC calendar), or `<n>h`: the last n hours. */
export const BUDGET_WINDOW_PATTERN = /^(run|day|month|[1-9]\d{0,3}h)$/;

@StrictObject('A limit on model tokens and/or cost over a window, for an agent, session, A2A peer, OpenAI/MCP key or channel account (docs/usage.md#budgets).')
export class BudgetConfig {
  @IsDefined() @IsString() @MinLength(1) @Describe('Named in the refusal and the logs.') name!: string;
  @IsOptional() @IsString() @MinLength(1) @Describe('An agent id or "*" pattern: each agent it matches has the limit on its own.') agent?: string;
  @IsOptional() @IsString() @MinLength(1) @Describe('A session key or "*" pattern: each session it matches has the limit on its own.') session?: string;
  @IsOptional() @IsString() @MinLength(1) @Describe('An A2A peer name or "*" pattern.') peer?: string;
  @IsOptional() @IsString() @MinLength(1) @Describe('An OpenAI-compatible or MCP endpoint key name or "*" pattern.') key?: string;
  @IsOptional() @IsString() @MinLength(1) @Describe('A channel account id (http or a chat channel) or "*" pattern.') account?: string;
  @IsOptional() @IsNumber() @Min(1) @Describe('Input plus output tokens allowed in the window.') tokens?: number;
  @IsOptional() @IsNumber() @Min(0) @Describe('Cost allowed in the window, in the unit of the models\' prices.') cost?: number;

  @IsDefined()
  @IsString()
  @Matches(BUDGET_WINDOW_PATTERN, { message: 'window must be "run", "day", "month" or "<n>h" (1 to 9999 hours)' })
  @Describe('"run", "day" or "month" (UTC calendar), or "<n>h": the last n hours.')
  window!: string;

  @IsOptional() @IsNumber() @Min(0) @Max(1) @Describe('Fraction of a limit at which a warning is logged, once per window.') softAt?: number;
}
