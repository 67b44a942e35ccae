import { LocalSlotBlocks, SLOT_HOLD_MS } from './local-slot-blocks';

describe('LocalSlotBlocks', () => {
  let now: number;
  let givenBack: Array<[string, string[]]>;
  let blocks: LocalSlotBlocks;

  beforeEach(() => {
    jest.useFakeTimers();
    now = 1_000_000;
    givenBack = [];
    blocks = new LocalSlotBlocks(
      (key, members) => givenBack.push([key, [...members]]),
      () => now,
    );
  });

  afterEach(() => jest.useRealTimers());

  const members = (n: number, prefix = 'm') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

  it('never takes ahead for a limit under 20 a window: every request asks the shared window', () => {
    for (let i = 0; i < 5; i++) expect(blocks.wanted('peer', 19)).toBe(0);
    expect(blocks.spend('peer', 1)).toBe(0);
  });

  it('takes nothing ahead for a key asked once; from the second ask within the hold it starts with one slot', () => {
    expect(blocks.wanted('peer', 1000)).toBe(0);
    now += 10;
    expect(blocks.wanted('peer', 1000)).toBe(1);
  });

  it('doubles the block while each is spent in time, up to a 20th of the limit and at most 100', () => {
    const sizes: number[] = [];
    blocks.wanted('peer', 1000);
    for (let round = 0; round < 8; round++) {
      now += 1;
      const size = blocks.wanted('peer', 1000);
      sizes.push(size);
      blocks.settle('peer', members(size, `r${round}-`));
      expect(blocks.spend('peer', size + 5)).toBe(size);
    }
    expect(sizes).toEqual([1, 2, 4, 8, 16, 32, 50, 50]);
    expect(givenBack).toEqual([]);
  });

  it('spends held slots without asking, and asks only once at a time while a request ahead is on its way', () => {
    blocks.wanted('peer', 1000);
    now += 1;
    expect(blocks.wanted('peer', 1000)).toBe(1);
    expect(blocks.wanted('peer', 1000)).toBe(0);
    blocks.settle('peer', ['a']);
    expect(blocks.spend('peer', 1)).toBe(1);
    expect(blocks.spend('peer', 1)).toBe(0);
    expect(blocks.wanted('peer', 1000)).toBe(2);
  });

  it('gives back what is left when the hold is up, and spends nothing of it after', () => {
    blocks.wanted('peer', 1000);
    now += 1;
    blocks.wanted('peer', 1000);
    blocks.settle('peer', ['a', 'b', 'c']);
    expect(blocks.spend('peer', 1)).toBe(1);
    now += SLOT_HOLD_MS;
    jest.advanceTimersByTime(SLOT_HOLD_MS);
    expect(givenBack).toEqual([['peer', ['a', 'b']]]);
    expect(blocks.spend('peer', 1)).toBe(0);
  });

  it('counts the hold from when the slots were asked for, not from when the answer came', () => {
    blocks.wanted('peer', 1000);
    now += 1;
    blocks.wanted('peer', 1000);
    now += SLOT_HOLD_MS;
    blocks.settle('peer', ['late']);
    expect(blocks.spend('peer', 1)).toBe(0);
    expect(givenBack).toEqual([['peer', ['late']]]);
  });

  it('a failed or refused request ahead leaves nothing held and lets the next request ask again', () => {
    blocks.wanted('peer', 1000);
    now += 1;
    expect(blocks.wanted('peer', 1000)).toBe(1);
    blocks.settle('peer', []);
    expect(blocks.spend('peer', 1)).toBe(0);
    now += 1;
    expect(blocks.wanted('peer', 1000)).toBe(1);
  });

  it('forget gives back what a key holds and starts it over', () => {
    blocks.wanted('peer', 1000);
    now += 1;
    blocks.wanted('peer', 1000);
    blocks.settle('peer', ['a', 'b']);
    blocks.forget('peer');
    expect(givenBack).toEqual([['peer', ['a', 'b']]]);
    expect(blocks.spend('peer', 1)).toBe(0);
    expect(blocks.wanted('peer', 1000)).toBe(0);
  });
});
