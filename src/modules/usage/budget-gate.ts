import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { compileAgentPattern } from '../../common/agent-pattern';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { BudgetSettings, NormalizedConfig } from '../config';
import { GatewayMetrics } from '../metrics';
import type { UsageCallContext } from './usage-recorder';
import { USAGE_STORE, type Spent, type SpentFilter, type UsageStore } from './usage-store.port';

/** The ErrorInfo reason and the refusal's kind: a caller maps it to its own terms (429, a FAILED task, a tool error). */
export const BUDGET_EXHAUSTED = 'BUDGET_EXHAUSTED' as const;

/**
 * A model call not made because a budget is used up. The message names the budget, its limit, what was used and when
 * it resets; `retryAfterSeconds` is the time to that reset (none for a `run` window: the run's budget never comes back).
 */
export class BudgetExhaustedError extends AppError {
  readonly reason: typeof BUDGET_EXHAUSTED = BUDGET_EXHAUSTED;
  constructor(
    message: string,
    readonly budget: string,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(ErrorCode.RateLimited, message);
    this.name = 'BudgetExhaustedError';
  }
}

const HOUR = 3_600_000;
const CALLER_CHANNELS = { peer: ['a2a'], key: ['openai', 'mcp'] } as const;
const NOT_ACCOUNTS: ReadonlySet<string> = new Set(['a2a', 'openai', 'mcp', 'agent', 'internal']);

/**
 * Checks the budgets that apply to a model call before it is made (docs/usage.md#budgets), against the usage store:
 * the sum of the window's rows, so the check is exact on one process and, on PostgreSQL, counts every replica's
 * written calls. A budget over its limit refuses the call with BudgetExhaustedError; one past its `softAt` logs a
 * warning once per window.
 */
@Injectable()
export class BudgetGate {
  private readonly logger = new Logger('usage');
  /** Budget, id and window start of the soft warnings given (cleared as windows pass). */
  private readonly warned = new Set<string>();
  private readonly patterns = new WeakMap<BudgetSettings, (id: string) => boolean>();

  constructor(
    @Inject(USAGE_STORE) private readonly store: UsageStore,
    @Optional() private readonly metrics?: GatewayMetrics,
  ) {}

  /** Undefined (nothing to wait for) when no budget applies: the call path awaits nothing it need not. */
  check(call: UsageCallContext, config: NormalizedConfig): Promise<void> | undefined {
    if (!config.budgets.length) return undefined;
    const applying = config.budgets.flatMap((budget) => {
      const id = this.idOf(budget, call);
      return id === undefined ? [] : [{ budget, id }];
    });
    return applying.length ? this.checkAll(call, applying) : undefined;
  }

  private async checkAll(call: UsageCallContext, applying: Array<{ budget: BudgetSettings; id: string }>): Promise<void> {
    const now = Date.now();
    for (const { budget, id } of applying) {
      const window = windowOf(budget, now);
      const spent = await this.store.spent(filterOf(budget, id, call, window.from));
      // Warned first: a call that goes from below softAt to past the limit at once is still warned of.
      this.softWarning(budget, id, spent, window.from);
      const over = overLimit(budget, spent);
      if (over) {
        const resetsAt = window.resetsAt ?? (spent.oldest !== undefined && window.rolling ? spent.oldest + window.rolling : undefined);
        const retryAfterSeconds = resetsAt === undefined ? undefined : Math.max(1, Math.ceil((resetsAt - now) / 1000));
        const when = resetsAt === undefined ? 'it does not reset within this run' : `it resets at ${new Date(resetsAt).toISOString()}`;
        throw new BudgetExhaustedError(
          `budget "${budget.name}" exhausted: ${over.limit} ${over.unit} per ${windowText(budget)} for ${budget.scope} ${id}, ${over.used} used; ${when}`,
          budget.name,
          retryAfterSeconds,
        );
      }
    }
  }

  private softWarning(budget: BudgetSettings, id: string, spent: Spent, windowStart: number): void {
    if (budget.softAt === undefined) return;
    const soft = (limit: number | undefined, used: number) => limit !== undefined && used >= limit * budget.softAt!;
    if (!soft(budget.tokens, spent.tokens) && !soft(budget.cost, spent.cost)) return;
    const key = `${budget.name}\u0000${id}\u0000${budget.window.kind === 'hours' ? 'rolling' : windowStart}`;
    if (this.warned.has(key)) return;
    if (this.warned.size > 10_000) this.warned.clear();
    this.warned.add(key);
    this.metrics?.budgetSoftLimit(budget.name);
    this.logger.warn(
      { event: 'budget.soft', budget: budget.name, scope: budget.scope, id, tokens: spent.tokens, cost: spent.cost },
      `budget "${budget.name}" for ${budget.scope} ${id} is past ${Math.round(budget.softAt * 100)}% of its limit: ${spent.tokens} tokens, cost ${spent.cost}`,
    );
  }

  /** The id of the call the budget is about, when its pattern matches it; undefined when the budget does not apply. */
  private idOf(budget: BudgetSettings, call: UsageCallContext): string | undefined {
    let matches = this.patterns.get(budget);
    if (!matches) this.patterns.set(budget, (matches = compileAgentPattern(budget.pattern)));
    const id =
      budget.scope === 'agent'
        ? call.agentId
        : budget.scope === 'session'
          ? call.sessionKey
          : budget.scope === 'account'
            ? NOT_ACCOUNTS.has(call.channel)
              ? undefined
              : call.caller
            : (CALLER_CHANNELS[budget.scope] as readonly string[]).includes(call.channel)
              ? call.caller
              : undefined;
    return id !== undefined && matches(id) ? id : undefined;
  }
}

function filterOf(budget: BudgetSettings, id: string, call: UsageCallContext, from: number): SpentFilter {
  if (budget.window.kind === 'run') return { column: 'run_id', value: call.runId, from: 0 };
  switch (budget.scope) {
    case 'agent':
      return { column: 'agent_id', value: id, from };
    case 'session':
      return { column: 'session_key', value: id, from };
    case 'account':
      return { column: 'caller', value: id, channels: [call.channel], from };
    default:
      return { column: 'caller', value: id, channels: CALLER_CHANNELS[budget.scope], from };
  }
}

/** Where the window starts, and when it resets (calendar windows) or how long a row counts (rolling ones). */
function windowOf(budget: BudgetSettings, now: number): { from: number; resetsAt?: number; rolling?: number } {
  const d = new Date(now);
  switch (budget.window.kind) {
    case 'run':
      return { from: 0 };
    case 'day': {
      const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
      return { from, resetsAt: from + 24 * HOUR };
    }
    case 'month':
      return { from: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), resetsAt: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
    case 'hours':
      return { from: now - budget.window.hours * HOUR, rolling: budget.window.hours * HOUR };
  }
}

function windowText(budget: BudgetSettings): string {
  return budget.window.kind === 'hours' ? `${budget.window.hours} h` : budget.window.kind;
}

function overLimit(budget: BudgetSettings, spent: Spent): { limit: number; used: number | string; unit: string } | undefined {
  if (budget.tokens !== undefined && spent.tokens >= budget.tokens) return { limit: budget.tokens, used: spent.tokens, unit: 'tokens' };
  if (budget.cost !== undefined && spent.cost >= budget.cost) return { limit: budget.cost, used: round(spent.cost), unit: 'cost' };
  return undefined;
}

function round(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}
