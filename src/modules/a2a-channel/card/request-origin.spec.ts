import { OriginRequest, requestOrigin } from './request-origin';

const req = (headers: OriginRequest['headers'], remoteAddress = '203.0.113.9', encrypted = false): OriginRequest => ({
  headers,
  socket: { remoteAddress, encrypted, localAddress: '127.0.0.1', localPort: 18789 },
});

describe('requestOrigin', () => {
  const proxies = ['10.0.0.0/8', '::1', '192.168.1.7'];

  it('uses Host and the connection scheme', () => {
    expect(requestOrigin(req({ host: 'claw.example:8443' }), proxies)).toBe('http://claw.example:8443');
    expect(requestOrigin(req({ host: 'claw.example' }, '203.0.113.9', true), proxies)).toBe('https://claw.example');
  });

  it('believes X-Forwarded-Proto only from a trusted proxy (IPv4, IPv4-mapped, IPv6, single address)', () => {
    const headers = { host: 'claw.example', 'x-forwarded-proto': 'https' };
    expect(requestOrigin(req(headers, '203.0.113.9'), proxies)).toBe('http://claw.example');
    expect(requestOrigin(req(headers, '10.1.2.3'), proxies)).toBe('https://claw.example');
    expect(requestOrigin(req(headers, '::ffff:10.1.2.3'), proxies)).toBe('https://claw.example');
    expect(requestOrigin(req(headers, '::1'), proxies)).toBe('https://claw.example');
    expect(requestOrigin(req(headers, '192.168.1.7'), proxies)).toBe('https://claw.example');
    expect(requestOrigin(req(headers, '192.168.1.8'), proxies)).toBe('http://claw.example');
    expect(requestOrigin(req(headers, '10.1.2.3'), [])).toBe('http://claw.example');
  });

  it('takes the first value of a forwarded list and ignores schemes other than http/https', () => {
    expect(requestOrigin(req({ host: 'h', 'x-forwarded-proto': 'https, http' }, '10.0.0.1'), proxies)).toBe('https://h');
    expect(requestOrigin(req({ host: 'h', 'x-forwarded-proto': 'javascript' }, '10.0.0.1'), proxies)).toBe('http://h');
  });

  it('never publishes a malformed Host; falls back to the local address', () => {
    expect(requestOrigin(req({ host: 'evil.example/path?x=' }), proxies)).toBe('http://127.0.0.1:18789');
    expect(requestOrigin(req({ host: 'a b' }), proxies)).toBe('http://127.0.0.1:18789');
    expect(requestOrigin(req({}), proxies)).toBe('http://127.0.0.1:18789');
    expect(requestOrigin(req({ host: '[::1]:8080' }), proxies)).toBe('http://[::1]:8080');
  });
});
