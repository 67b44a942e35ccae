// The limiter is shared with the OpenAI-compatible endpoint; the A2A channel keeps its own injection token.
export { SlidingWindowRateLimiter, type RateLimiter } from '../../common/rate-limit/sliding-window-rate-limiter';

export const RATE_LIMITER = Symbol('A2A_RATE_LIMITER');
