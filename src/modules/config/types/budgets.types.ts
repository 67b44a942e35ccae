/** The normalized `budgets`: limits on model tokens and cost (docs/usage.md#budgets). */

/** What a budget is attached to: every id the pattern matches has the limit on its own. */
export type BudgetScope = 'agent' | 'session' | 'peer' | 'key' | 'account';

export interface BudgetSettings {
  name: string;
  scope: BudgetScope;
  /** An id, or a pattern with `*`. */
  pattern: string;
  tokens?: number;
  cost?: number;
  /** `run`, `day`, `month` (UTC), or a rolling number of hours. */
  window: { kind: 'run' | 'day' | 'month' } | { kind: 'hours'; hours: number };
  softAt?: number;
}
