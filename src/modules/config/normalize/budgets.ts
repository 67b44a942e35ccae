import type { BudgetConfig } from '../schema/budgets.schema';
import type { BudgetScope, BudgetSettings } from '../config.types';
import type { NormalizeContext } from './normalize-context';

const SCOPES: readonly BudgetScope[] = ['agent', 'session', 'peer', 'key', 'account'];

/** `budgets`: each names exactly one of agent|session|peer|key|account and at least one limit; names are unique. */
export function normalizeBudgets(ctx: NormalizeContext, budgets: readonly BudgetConfig[]): BudgetSettings[] {
  const names = new Set<string>();
  const out: BudgetSettings[] = [];
  budgets.forEach((b, index) => {
    const at = `budgets[${index}]`;
    const scopes = SCOPES.filter((scope) => b[scope] !== undefined);
    if (scopes.length !== 1) {
      ctx.errors.push({ path: at, message: `a budget names exactly one of ${SCOPES.join(', ')} (found ${scopes.length ? scopes.join(', ') : 'none'})` });
      return;
    }
    if (b.tokens === undefined && b.cost === undefined) {
      ctx.errors.push({ path: at, message: 'a budget sets tokens, cost or both' });
      return;
    }
    if (names.has(b.name)) ctx.errors.push({ path: `${at}.name`, message: `budget name "${b.name}" is used twice` });
    names.add(b.name);
    const hours = /^(\d+)h$/.exec(b.window);
    out.push({
      name: b.name,
      scope: scopes[0],
      pattern: b[scopes[0]] as string,
      ...(b.tokens !== undefined ? { tokens: b.tokens } : {}),
      ...(b.cost !== undefined ? { cost: b.cost } : {}),
      window: hours ? { kind: 'hours', hours: Number(hours[1]) } : { kind: b.window as 'run' | 'day' | 'month' },
      ...(b.softAt !== undefined ? { softAt: b.softAt } : {}),
    });
  });
  return out;
}
