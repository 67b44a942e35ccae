/**
 * Values `channels.a2a.keptTasksPerPeer` refuses, each with the message that names why: one table for the
 * validator's unit spec and the admin API's e2e, so both hold the same rule.
 */
export const KEPT_TASKS_PER_PEER_REFUSALS: Array<[unknown, string]> = [
  [0, 'must not be less than 1 (got 0)'],
  [-1, 'must not be less than 1 (got -1)'],
  [2.5, 'must be an integer number (got 2.5)'],
  ['500', 'must be an integer number (got "500")'],
  [2_000_000, 'must not be greater than 1000000 (got 2000000)'],
];
