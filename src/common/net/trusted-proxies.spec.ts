import { isTrustedAddress, trustedProxyList } from './trusted-proxies';

// Merged from the admin peer-address and A2A request-origin specs.
describe('trusted proxies', () => {
  it('matches addresses and CIDR blocks of both families, including IPv4-mapped peers', () => {
    expect(isTrustedAddress('10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(isTrustedAddress('11.1.2.3', ['10.0.0.0/8'])).toBe(false);
    expect(isTrustedAddress('::ffff:10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(isTrustedAddress('::FFFF:10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(isTrustedAddress('127.0.0.1', ['::ffff:127.0.0.1'])).toBe(true);
    expect(isTrustedAddress('fd00::5', ['fd00::/8'])).toBe(true);
    expect(isTrustedAddress('::1', ['127.0.0.1'])).toBe(false);
    expect(isTrustedAddress('127.0.0.2', ['127.0.0.1'])).toBe(false);
    expect(isTrustedAddress('127.0.0.1', [])).toBe(false);
    expect(isTrustedAddress(undefined, ['0.0.0.0/0'])).toBe(false);
    expect(isTrustedAddress('not-an-ip', ['0.0.0.0/0'])).toBe(false);
  });

  it('reads the hex spelling of an IPv4-mapped address as the IPv4 address it is', () => {
    expect(isTrustedAddress('::ffff:a00:1', ['10.0.0.0/8'])).toBe(true);
    expect(isTrustedAddress('::ffff:a00:1', ['11.0.0.0/8'])).toBe(false);
  });

  it('refuses garbage addresses', () => {
    const proxies = ['10.0.0.0/8', '::1', '192.168.1.7'];
    expect(isTrustedAddress('not-an-ip', proxies)).toBe(false);
    expect(isTrustedAddress(undefined, proxies)).toBe(false);
  });

  it('compiles each CIDR array once (per array identity)', () => {
    const cidrs = ['10.0.0.0/8'];
    expect(trustedProxyList(cidrs)).toBe(trustedProxyList(cidrs));
    expect(trustedProxyList([...cidrs])).not.toBe(trustedProxyList(cidrs));
  });
});
