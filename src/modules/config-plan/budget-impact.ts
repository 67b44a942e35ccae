import { compileAgentPattern } from '../../common/agent-pattern';
import type { BudgetSettings, NormalizedConfig } from '../config';
import { splitKeys } from './value-change';

type BudgetScope = BudgetSettings['scope'];

/** A budget as a plan shows it: its settings, and what configured thing it applies to. */
export interface PlanBudget {
  name: string;
  scope: BudgetScope;
  pattern: string;
  tokens: number | null;
  cost: number | null;
  /** `run`, `day`, `month` or `<n>h`, as written. */
  window: string;
  softAt: number | null;
  /**
   * The configured agents, A2A peers, endpoint keys (OpenAI-compatible and MCP) or http channel accounts its pattern
   * matches, each held to the limit on its own; null for a session budget (sessions are not configured, the pattern
   * says which).
   */
  appliesTo: string[] | null;
}

/** A budget kept by name whose settings or whose reach change. */
export interface PlanBudgetChange {
  name: string;
  before: PlanBudget;
  after: PlanBudget;
  /** The settings that change: scope, pattern, tokens, cost, window, softAt (empty when only its reach changes). */
  keys: string[];
  /** What it applies to after the change only, and before it only. */
  appliesToAdded: string[];
  appliesToRemoved: string[];
}

/** An agent, peer, key or account whose budgets change. */
export interface PlanBudgetTarget {
  scope: Exclude<BudgetScope, 'session'>;
  id: string;
  /** Budgets that apply to it after the change only, before it only, and both with other settings. */
  gained: string[];
  lost: string[];
  changed: string[];
}

export interface BudgetImpact {
  added: PlanBudget[];
  removed: PlanBudget[];
  changed: PlanBudgetChange[];
  targets: PlanBudgetTarget[];
}

const SETTINGS = ['scope', 'pattern', 'tokens', 'cost', 'window', 'softAt'] as const;
const TARGET_SCOPES = ['agent', 'peer', 'key', 'account'] as const;

/** What a new config changes of the budgets (docs/configuration.md#13-plan-before-you-apply), by budget and by target. */
export function budgetImpact(before: NormalizedConfig, after: NormalizedConfig): BudgetImpact {
  const was = new Map(before.budgets.map((b) => [b.name, planBudget(b, before)]));
  const now = new Map(after.budgets.map((b) => [b.name, planBudget(b, after)]));
  const names = splitKeys(was.keys(), now.keys());
  const changed: PlanBudgetChange[] = [];
  for (const name of names.kept) {
    const a = was.get(name)!;
    const b = now.get(name)!;
    const keys = SETTINGS.filter((key) => a[key] !== b[key]);
    const reach = splitKeys(a.appliesTo ?? [], b.appliesTo ?? []);
    if (!keys.length && !reach.added.length && !reach.removed.length) continue;
    changed.push({ name, before: a, after: b, keys, appliesToAdded: reach.added, appliesToRemoved: reach.removed });
  }
  const changedSettings = new Set(changed.filter((c) => c.keys.length).map((c) => c.name));
  const targets: PlanBudgetTarget[] = [];
  for (const scope of TARGET_SCOPES) {
    const ids = [...new Set([...targetIds(before, scope), ...targetIds(after, scope)])].sort();
    for (const id of ids) {
      const of = (budgets: Map<string, PlanBudget>) =>
        [...budgets.values()].filter((b) => b.scope === scope && b.appliesTo?.includes(id)).map((b) => b.name);
      const { added, removed, kept } = splitKeys(of(was), of(now));
      const alsoChanged = kept.filter((name) => changedSettings.has(name));
      if (added.length || removed.length || alsoChanged.length)
        targets.push({ scope, id, gained: added, lost: removed, changed: alsoChanged });
    }
  }
  return { added: names.added.map((n) => now.get(n)!), removed: names.removed.map((n) => was.get(n)!), changed, targets };
}

function planBudget(budget: BudgetSettings, config: NormalizedConfig): PlanBudget {
  const matches = compileAgentPattern(budget.pattern);
  return {
    name: budget.name,
    scope: budget.scope,
    pattern: budget.pattern,
    tokens: budget.tokens ?? null,
    cost: budget.cost ?? null,
    window: budget.window.kind === 'hours' ? `${budget.window.hours}h` : budget.window.kind,
    softAt: budget.softAt ?? null,
    appliesTo: budget.scope === 'session' ? null : targetIds(config, budget.scope).filter(matches),
  };
}

/** The configured ids a budget of `scope` can be about. */
function targetIds(config: NormalizedConfig, scope: (typeof TARGET_SCOPES)[number]): string[] {
  switch (scope) {
    case 'agent':
      return config.agents.map((a) => a.id);
    case 'peer':
      return Object.keys(config.channels.a2a.peers);
    case 'key': {
      const { chatCompletions, mcp } = config.gateway.http.endpoints;
      return [...new Set([...chatCompletions.keys, ...mcp.keys].map((k) => k.name))];
    }
    case 'account':
      return Object.keys(config.channels.http.accounts);
  }
}
