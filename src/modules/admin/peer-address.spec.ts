import { clientAddress, isLoopbackAddress, PeerRequest } from './peer-address';

const req = (remoteAddress: string, xff?: string): PeerRequest => ({
  socket: { remoteAddress },
  headers: xff ? { 'x-forwarded-for': xff } : {},
});

describe('peer addresses', () => {
  it('recognizes loopback in IPv4, IPv6 and IPv4-mapped form only', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('127.8.9.10')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
    expect(isLoopbackAddress('::ffff:10.0.0.1')).toBe(false);
    expect(isLoopbackAddress('127.example.com')).toBe(false);
    expect(isLoopbackAddress(undefined)).toBe(false);
  });

  it('believes X-Forwarded-For only from a trusted proxy, right to left up to the first untrusted hop', () => {
    expect(clientAddress(req('203.0.113.9', '10.0.0.1'), ['10.0.0.0/8'])).toBe('203.0.113.9');
    expect(clientAddress(req('10.0.0.2', '1.2.3.4, 198.51.100.7'), ['10.0.0.0/8'])).toBe('198.51.100.7');
    expect(clientAddress(req('10.0.0.2', '198.51.100.7, 10.0.0.3'), ['10.0.0.0/8'])).toBe('198.51.100.7');
    expect(clientAddress(req('10.0.0.2', 'unknown'), ['10.0.0.0/8'])).toBe('10.0.0.2');
    expect(clientAddress(req('10.0.0.2'), ['10.0.0.0/8'])).toBe('10.0.0.2');
  });
});
