/**
 * Freezes an object and everything reachable from it, so a shared value (config defaults, a loaded
 * snapshot) cannot be changed by whoever reads it. Already-frozen objects are left as they are.
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v);
  }
  return value;
}
