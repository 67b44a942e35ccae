import type { NormalizedConfig } from '../config';

export interface CallTokens {
  /** Every prompt token, the cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** The part of inputTokens read from the provider's prompt cache. */
  cachedTokens: number;
}

/**
 * What a call cost, from its model's `cost` entry in `models.providers.<provider>.models[]` (per million tokens): the
 * uncached input at `input`, the cached input at `cacheRead` (at `input` when the entry has no cacheRead), the output at
 * `output`. Null when the model has no entry or the entry has neither an input nor an output price: its tokens still
 * count, its cost is unknown rather than zero.
 */
export function priceOf(config: NormalizedConfig, modelRef: string, tokens: CallTokens): number | null {
  const slash = modelRef.indexOf('/');
  if (slash <= 0) return null;
  const providers = config.models.providers;
  const name = modelRef.slice(0, slash);
  const provider = Object.hasOwn(providers, name) ? providers[name] : undefined;
  const cost = provider?.models.find((m) => m.id === modelRef.slice(slash + 1))?.cost;
  if (!cost || (cost.input === undefined && cost.output === undefined)) return null;
  const input = cost.input ?? 0;
  const cached = Math.min(tokens.cachedTokens, tokens.inputTokens);
  return (
    ((tokens.inputTokens - cached) * input + cached * (cost.cacheRead ?? input) + tokens.outputTokens * (cost.output ?? 0)) / 1_000_000
  );
}
