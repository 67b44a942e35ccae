import { positional, postgresStartError, postgresTarget } from './postgres';

describe('PostgreSQL helpers', () => {
  it('turns @name parameters into $n, one number per name', () => {
    expect(positional('SELECT * FROM t WHERE a = @a AND (b = @b OR @a IS NULL) LIMIT @limit', { a: 1, b: 'x', limit: 5 })).toEqual({
      text: 'SELECT * FROM t WHERE a = $1 AND (b = $2 OR $1 IS NULL) LIMIT $3',
      values: [1, 'x', 5],
    });
    expect(() => positional('SELECT @missing', {})).toThrow('no value for the SQL parameter @missing');
  });

  it('names a server by host, port and database only', () => {
    expect(postgresTarget('postgres://user:pa%40ss@db.internal:6432/claw%20gate')).toBe('db.internal:6432/claw gate');
    expect(postgresTarget('postgresql://db.internal/clawgate')).toBe('db.internal:5432/clawgate');
    expect(postgresTarget('not a url')).toBe('the configured server');
  });

  it('keeps the password out of a start error, even when the driver quotes it', () => {
    const err = postgresStartError(
      'postgres://u:hunter2@db:5432/x',
      'the store could not start',
      new Error('auth as u with hunter2 failed'),
    );
    expect(err.message).toBe('the store could not start: PostgreSQL at db:5432/x is unreachable or refused: auth as u with *** failed');
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
    expect(postgresStartError('postgres://db/x', 'start', refused).message).toContain('connect ECONNREFUSED 10.0.0.5:5432');
  });
});
