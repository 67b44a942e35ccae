import { BUDGET_METADATA_KEY, readBudgetMetadata } from './work-origin';

describe('readBudgetMetadata', () => {
  const origin = { agent: 'alice', session: 'agent:alice:main', channel: 'http', caller: 'desk' };
  const of = (value: unknown) => readBudgetMetadata({ [BUDGET_METADATA_KEY]: value });

  it('reads the origin, what is left and the budget name', () => {
    expect(of({ origin, remaining: { tokens: 42, cost: 0.5 }, budget: 'alice-request' })).toEqual({
      origin,
      remaining: { tokens: 42, cost: 0.5 },
      budget: 'alice-request',
    });
    expect(of({ remaining: { cost: 0 }, budget: 'b' })).toEqual({
      origin: { agent: '', session: '', channel: '' },
      remaining: { cost: 0 },
      budget: 'b',
    });
  });

  it.each([
    ['no key', undefined],
    ['not an object', 'lots'],
    ['no budget name', { origin, remaining: { tokens: 5 } }],
    ['no limit', { origin, remaining: {}, budget: 'b' }],
    ['a negative limit', { origin, remaining: { tokens: -1 }, budget: 'b' }],
    ['a limit that is not a number', { origin, remaining: { tokens: '5' }, budget: 'b' }],
    ['an infinite limit', { origin, remaining: { cost: Infinity }, budget: 'b' }],
    ['one good limit beside a bad one', { origin, remaining: { tokens: 5, cost: 'x' }, budget: 'b' }],
  ])('applies nothing it cannot read: %s', (_what, value) => {
    expect(value === undefined ? readBudgetMetadata({}) : of(value)).toBeUndefined();
  });

  it('reads nothing from metadata that is not an object', () => {
    expect(readBudgetMetadata(undefined)).toBeUndefined();
    expect(readBudgetMetadata([{ [BUDGET_METADATA_KEY]: {} }])).toBeUndefined();
  });
});
