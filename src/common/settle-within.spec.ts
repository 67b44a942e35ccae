import { settleWithin } from './settle-within';

describe('settleWithin', () => {
  it('resolves once all the work has settled, rejections included, before the time is up', async () => {
    let done = false;
    const work = [new Promise((resolve) => setTimeout(resolve, 20)).then(() => (done = true)), Promise.reject(new Error('no'))];
    // Waiting out the 60 s would fail the test by its own timeout: resolving means the work decided it.
    await settleWithin(work, 60_000);
    expect(done).toBe(true);
  });

  it('gives up on work that goes on past the time', async () => {
    let finished = false;
    const forever = new Promise<void>(() => undefined).then(() => (finished = true));
    await settleWithin([forever], 30);
    expect(finished).toBe(false);
  });
});
