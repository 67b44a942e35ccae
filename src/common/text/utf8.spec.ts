import { cutUtf8 } from './utf8';

describe('cutUtf8', () => {
  it('keeps the longest start within the limit, on a character boundary, with no marker', () => {
    expect(cutUtf8('a€b', 3)).toBe('a');
    expect(cutUtf8('a€b', 4)).toBe('a€');
    expect(cutUtf8('a€b', 5)).toBe('a€b');
    expect(cutUtf8('€', 0)).toBe('');
  });
});
