export { UsageModule } from './usage.module';
export { UsageRecorder, type UsageCallContext } from './usage-recorder';
export { priceOf, type CallTokens } from './usage-pricing';
export { USAGE_STORE, type UsageStore, type UsageRow, type UsageGroup, type UsageQuery, type RouteSpend } from './usage-store.port';
export { BudgetGate, BudgetExhaustedError, BUDGET_EXHAUSTED, type Remaining } from './budget-gate';
