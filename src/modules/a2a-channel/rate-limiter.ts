// The sliding-window limiter is shared with the OpenAI-compatible endpoint; the A2A channel keeps its own
// injection token, for windows that are in-process or, with gateway.cluster, shared by every replica.
export { SlidingWindowRateLimiter } from '../../common/rate-limit/sliding-window-rate-limiter';
export { InProcessRateLimitWindows, type RateLimitWindows } from '../../common/rate-limit/rate-limit-windows';

export const RATE_LIMITER = Symbol('A2A_RATE_LIMITER');
/** The namespace of the per-peer windows in Redis (`clawgate:ratelimit:a2a-peer:<peer>`). */
export const PEER_RATE_LIMIT_NAMESPACE = 'a2a-peer';
