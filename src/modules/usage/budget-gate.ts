import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { compileAgentPattern } from '../../common/agent-pattern';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { BudgetSettings, NormalizedConfig } from '../config';
import { GatewayMetrics } from '../metrics';
import type { WorkOrigin } from '../../common/work-origin';
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

/** What a piece of work may still spend, and the budget its tightest limit belongs to (BudgetGate.remaining). */
export interface Remaining {
  budget: string;
  tokens?: number;
  cost?: number;
}

/** A limit a call is checked against, and the rows it counts. */
interface Applying {
  budget: BudgetSettings;
  id: string;
  filter: (from: number) => SpentFilter;
  /** The budget matched the work's origin, not the run. */
  ofOrigin?: boolean;
  /** A limit a trusted peer carried in with its task. */
  carried?: boolean;
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
    if (!config.budgets.length && !call.origin?.carried) return undefined;
    const applying = this.applying(call, config);
    return applying.length ? this.checkAll(applying) : undefined;
  }

  /**
   * What the work of `call` may still spend (docs/usage.md#budgets-follow-the-work): the least that is left of each
   * limit that applies to it — its own budgets, its origin's, and what a trusted peer carried in — with the name of
   * the budget the tightest limit belongs to (tokens first). Undefined when no limit applies.
   */
  async remaining(call: UsageCallContext, config: NormalizedConfig): Promise<Remaining | undefined> {
    const now = Date.now();
    let left: Remaining | undefined;
    for (const entry of this.applying(call, config)) {
      const spent = await this.store.spent(entry.filter(windowOf(entry.budget, now).from));
      const tokens = entry.budget.tokens === undefined ? undefined : Math.max(0, entry.budget.tokens - spent.tokens);
      const cost = entry.budget.cost === undefined ? undefined : Math.max(0, round(entry.budget.cost - spent.cost));
      left ??= { budget: entry.budget.name };
      if (tokens !== undefined && (left.tokens === undefined || tokens < left.tokens)) {
        left = { ...left, tokens, budget: entry.budget.name };
      }
      if (cost !== undefined && (left.cost === undefined || cost < left.cost)) {
        left = { ...left, cost, ...(left.tokens === undefined ? { budget: entry.budget.name } : {}) };
      }
    }
    return left;
  }

  /**
   * The limits the call is checked against: each budget whose pattern matches the run (its own rows), each budget whose
   * pattern matches the run's origin (the rows of all the work that started there), and a carried budget (the rows of
   * the origin run's tree, as a `run` window).
   */
  private applying(call: UsageCallContext, config: NormalizedConfig): Applying[] {
    const applying: Applying[] = [];
    for (const budget of config.budgets) {
      const id = this.idOf(budget, call);
      if (id !== undefined) applying.push({ budget, id, filter: (from) => filterOf(budget, id, call, from) });
      const origin = call.origin;
      const originId = origin && this.idOf(budget, origin);
      if (origin && originId !== undefined) {
        applying.push({ budget, id: originId, ofOrigin: true, filter: (from) => originFilterOf(budget, originId, origin, from) });
      }
    }
    const carried = call.origin?.carried;
    if (call.origin && carried) {
      const treeOf = call.origin.runId;
      applying.push({
        budget: {
          name: carried.budget,
          scope: 'peer',
          pattern: carried.peer,
          ...(carried.tokens !== undefined ? { tokens: carried.tokens } : {}),
          ...(carried.cost !== undefined ? { cost: carried.cost } : {}),
          window: { kind: 'run' },
        },
        id: carried.peer,
        carried: true,
        filter: () => ({ column: 'run_id', value: treeOf, from: 0, origin: true }),
      });
    }
    return applying;
  }

  private async checkAll(applying: Applying[]): Promise<void> {
    const now = Date.now();
    for (const { budget, id, filter, ofOrigin, carried } of applying) {
      const window = windowOf(budget, now);
      const spent = await this.store.spent(filter(window.from));
      // Warned first: a call that goes from below softAt to past the limit at once is still warned of.
      this.softWarning(budget, id, spent, window.from);
      const over = overLimit(budget, spent);
      if (over) {
        const resetsAt = window.resetsAt ?? (spent.oldest !== undefined && window.rolling ? spent.oldest + window.rolling : undefined);
        const retryAfterSeconds = resetsAt === undefined ? undefined : Math.max(1, Math.ceil((resetsAt - now) / 1000));
        const when = resetsAt === undefined ? 'it does not reset within this run' : `it resets at ${new Date(resetsAt).toISOString()}`;
        const what = carried
          ? `${over.limit} ${over.unit} for this task, as peer ${id} allowed it`
          : `${over.limit} ${over.unit} per ${windowText(budget)} for ${budget.scope} ${id}${ofOrigin ? ', where this work started' : ''}`;
        throw new BudgetExhaustedError(
          `budget "${budget.name}" exhausted: ${what}, ${over.used} used; ${when}`,
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

  /** The id of the run (or origin) the budget is about, when its pattern matches it; undefined when the budget does not apply. */
  private idOf(budget: BudgetSettings, call: Pick<UsageCallContext, 'agentId' | 'sessionKey' | 'channel' | 'caller'>): string | undefined {
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

function filterOf(
  budget: BudgetSettings,
  id: string,
  call: Pick<UsageCallContext, 'channel'> & { runId?: string },
  from: number,
): SpentFilter {
  if (budget.window.kind === 'run') return { column: 'run_id', value: call.runId ?? '', from: 0 };
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

/** The same rows for the origin's id: those of the work that started there, whichever run made them. */
function originFilterOf(budget: BudgetSettings, id: string, origin: WorkOrigin, from: number): SpentFilter {
  if (budget.window.kind === 'run') return { column: 'run_id', value: origin.runId, from: 0, origin: true };
  return { ...filterOf(budget, id, { channel: origin.channel }, from), origin: true };
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
