import { DebounceTimer } from './debounce-timer';

describe('DebounceTimer', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('fires after the quiet time, once per burst', () => {
    const fire = jest.fn();
    const timer = new DebounceTimer(() => 100, fire);
    timer.touch();
    jest.advanceTimersByTime(60);
    timer.touch();
    jest.advanceTimersByTime(99);
    expect(fire).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(fire).toHaveBeenCalledTimes(1);
    timer.touch(); // a new burst starts its own ceiling
    jest.advanceTimersByTime(100);
    expect(fire).toHaveBeenCalledTimes(2);
  });

  it('fires at the latest 5 × debounce after the first touch of a burst that never falls quiet', () => {
    const fire = jest.fn();
    const timer = new DebounceTimer(() => 100, fire);
    for (let t = 0; t < 499; t += 50) {
      timer.touch();
      jest.advanceTimersByTime(50);
    }
    expect(fire).toHaveBeenCalledTimes(1);
    expect(Date.now()).toBe(500);
  });

  it('reads the debounce at every touch, and fires nothing once cancelled', () => {
    let debounce = 1000;
    const fire = jest.fn();
    const timer = new DebounceTimer(() => debounce, fire);
    timer.touch();
    debounce = 10;
    timer.touch();
    jest.advanceTimersByTime(10);
    expect(fire).toHaveBeenCalledTimes(1);
    timer.touch();
    timer.cancel();
    jest.advanceTimersByTime(5000);
    expect(fire).toHaveBeenCalledTimes(1);
  });
});
