import { keysetPage, sqlFilter } from './sql-filter';

describe('sqlFilter and keysetPage', () => {
  it('joins the conditions that are set and merges their parameters; none set is a clause that matches all', () => {
    expect(sqlFilter([['a = @a', { a: 1 }], false, undefined, ['b > @b', { b: 2 }]])).toEqual({
      sql: 'a = @a AND b > @b',
      params: { a: 1, b: 2 },
    });
    expect(sqlFilter([false, undefined])).toEqual({ sql: '1', params: {} });
  });

  it('cuts a LIMIT n+1 read to n rows and names the last one only when more follow', () => {
    expect(keysetPage([1, 2, 3], 2)).toEqual({ rows: [1, 2], last: 2 });
    expect(keysetPage([1, 2], 2)).toEqual({ rows: [1, 2] });
    expect(keysetPage([], 2)).toEqual({ rows: [] });
  });
});
