/**
 * Values `session.agentToAgent.keptExchanges` refuses, each with the message that names why: one table for the
 * validator's unit spec and the e2e over the admin API.
 */
export const KEPT_EXCHANGES_REFUSALS: Array<[unknown, string]> = [
  [0, 'must not be less than 1 (got 0)'],
  [1.5, 'must be an integer number (got 1.5)'],
  ['10', 'must be an integer number (got "10")'],
  [1_000_001, 'must not be greater than 1000000 (got 1000001)'],
];
