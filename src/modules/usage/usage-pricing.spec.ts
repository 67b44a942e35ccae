import type { NormalizedConfig } from '../config';
import { priceOf } from './usage-pricing';

const config = {
  models: {
    providers: {
      up: {
        name: 'up',
        models: [
          { id: 'priced', cost: { input: 2, output: 10, cacheRead: 0.5 } },
          { id: 'no-cache-price', cost: { input: 2, output: 10 } },
          { id: 'write-only', cost: { cacheWrite: 3 } },
          { id: 'free' },
        ],
      },
    },
  },
} as unknown as NormalizedConfig;

describe('priceOf', () => {
  it('prices uncached input, cached input and output per million tokens', () => {
    expect(priceOf(config, 'up/priced', { inputTokens: 100, cachedTokens: 40, outputTokens: 20 })).toBeCloseTo(
      (60 * 2 + 40 * 0.5 + 20 * 10) / 1e6,
      15,
    );
  });

  it('prices cached input at the input price when the entry has no cacheRead', () => {
    expect(priceOf(config, 'up/no-cache-price', { inputTokens: 100, cachedTokens: 40, outputTokens: 0 })).toBeCloseTo(200 / 1e6, 15);
  });

  it('is null for a model without a price: an unknown provider or model, no cost entry, or neither input nor output price', () => {
    const tokens = { inputTokens: 1, cachedTokens: 0, outputTokens: 1 };
    for (const ref of ['up/free', 'up/write-only', 'up/missing', 'other/priced', 'bare', 'constructor/x'])
      expect(priceOf(config, ref, tokens)).toBeNull();
  });
});
