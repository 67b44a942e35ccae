import { parseRedisUrl, redisAddress } from './redis-url';

describe('parseRedisUrl', () => {
  it('reads host, port (6379 when left out), database (0 when left out) and TLS', () => {
    expect(parseRedisUrl('redis://127.0.0.1')).toEqual({ host: '127.0.0.1', port: 6379, db: 0, tls: false });
    expect(parseRedisUrl('rediss://cache.internal:6380/2')).toEqual({ host: 'cache.internal', port: 6380, db: 2, tls: true });
    expect(parseRedisUrl('redis://[::1]:7000/')).toEqual({ host: '::1', port: 7000, db: 0, tls: false });
  });

  it.each([
    ['https://redis:6379', 'must start with redis:// or rediss:// (TLS)'],
    ['redis:6379', 'must name a host'],
    ['not a url', 'must be a URL such as'],
    ['redis://h:6379/x', 'the path must be a database number (redis://host:port/2)'],
    ['redis://h:6379/1?tls=true', 'must not have a query or fragment'],
    ['redis://h:6379#frag', 'must not have a query or fragment'],
  ])('refuses %s', (url, problem) => {
    const parsed = parseRedisUrl(url);
    expect('problem' in parsed && parsed.problem).toContain(problem);
  });

  it('addresses as host:port, brackets around an IPv6 host', () => {
    expect(redisAddress({ host: 'cache', port: 6379 })).toBe('cache:6379');
    expect(redisAddress({ host: '::1', port: 6379 })).toBe('[::1]:6379');
  });
});
