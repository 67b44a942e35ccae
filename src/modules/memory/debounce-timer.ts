/**
 * The debounce rule of memory's change feeds: fire once `debounceMs` of quiet have passed since the last
 * touch, but at the latest 5 × debounce after the first one, so a transcript that never falls quiet is still
 * indexed while it grows. `debounceMs` is read at every touch, so a reload takes effect at once.
 */
export class DebounceTimer {
  private timer?: NodeJS.Timeout;
  private firstTouchAt = 0;

  constructor(
    private readonly debounceMs: () => number,
    private readonly fire: () => void,
  ) {}

  touch(): void {
    const now = Date.now();
    if (!this.timer) this.firstTouchAt = now;
    clearTimeout(this.timer);
    const debounce = this.debounceMs();
    const wait = Math.max(0, Math.min(debounce, this.firstTouchAt + debounce * 5 - now));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fire();
    }, wait);
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
