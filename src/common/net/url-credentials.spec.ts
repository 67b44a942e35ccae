import { hasUrlCredentials, withoutUrlCredentials } from './url-credentials';

describe('credentials in URLs', () => {
  it.each(['http://svc:pass@host/x', 'https://user@host', 'HTTP://a:b@[::1]:8080/', ' http://u:p@h', 'http://:p@h', 'http://u:p@h@i/'])(
    '%s has credentials',
    (url) => expect(hasUrlCredentials(url)).toBe(true),
  );

  it.each(['http://host/@team', 'https://host?by=a@b', 'https://host#x@y', 'mailto:a@b.example', 'host@example', 'http://host:8080/'])(
    '%s has none',
    (url) => expect(hasUrlCredentials(url)).toBe(false),
  );

  it('masks the whole userinfo, up to the last @ of the authority, and leaves other text alone', () => {
    expect(withoutUrlCredentials('http://svc:pa@ss@host:1/p?q=@')).toBe('http://***@host:1/p?q=@');
    expect(withoutUrlCredentials('https://host/@x')).toBe('https://host/@x');
  });
});
