/**
 * Waits until every one of `work` has settled or `ms` have passed, whichever comes first; never rejects. The timer
 * is cleared as soon as the work is done and never holds the process open.
 */
export async function settleWithin(work: Iterable<Promise<unknown>>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  try {
    await Promise.race([Promise.allSettled([...work]), timeUp]);
  } finally {
    clearTimeout(timer);
  }
}
