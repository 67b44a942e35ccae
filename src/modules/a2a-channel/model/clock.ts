/** Milliseconds since the epoch. A port so rate-limit windows and task expiry can be tested without sleeping. */
export interface Clock {
  now(): number;
}

export const A2A_CLOCK = Symbol('A2A_CLOCK');

/** The wall clock. One instance per gateway, so a test can steer one gateway's clock without touching another's. */
export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }
}
