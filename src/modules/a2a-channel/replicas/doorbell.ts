/** Rung by events that may end a wait; a ring before the wait counts, so none is missed between two reads. */
export class Doorbell {
  private rung = false;
  private wake?: () => void;

  ring(): void {
    this.rung = true;
    this.wake?.();
  }

  /** Resolves true when rung (now or before), false after `ms`. */
  wait(ms: number): Promise<boolean> {
    if (this.rung || ms <= 0) return Promise.resolve(this.consume());
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(this.consume()), ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve(this.consume());
      };
    });
  }

  private consume(): boolean {
    const rung = this.rung;
    this.rung = false;
    this.wake = undefined;
    return rung;
  }
}
