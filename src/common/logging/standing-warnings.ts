/** What changed in a set of standing warnings since it was last looked at. */
export interface WarningChanges {
  /** Not there last time: log them now. */
  appeared: string[];
  /** There last time, gone now: say they no longer apply. */
  cleared: string[];
}

/**
 * Warnings that hold for as long as a state lasts (a config warning, a secret too short to mask) and are found again
 * by every look at that state (every reload). Logging them each time buries the first line in repeats; this keeps
 * what was last reported, so a warning is logged when it appears and once more when it clears. Keys are what makes
 * two warnings the same one (the formatted warning, a config path).
 */
export class StandingWarnings {
  private shown = new Set<string>();

  update(current: Iterable<string>): WarningChanges {
    const now = new Set(current);
    const appeared = [...now].filter((key) => !this.shown.has(key));
    const cleared = [...this.shown].filter((key) => !now.has(key));
    this.shown = now;
    return { appeared, cleared };
  }
}
