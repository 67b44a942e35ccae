import type { NormalizedConfig } from '../modules/config';
import { localUrl } from './mcp-serve-command';

function gateway(bind: string, tls: boolean): Pick<NormalizedConfig, 'gateway'> {
  const tlsSettings = tls ? { enabled: true, certPath: '/c.pem', keyPath: '/k.pem' } : { enabled: false };
  return { gateway: { bind, port: 18789, tls: tlsSettings } } as unknown as Pick<NormalizedConfig, 'gateway'>;
}

describe('clawgate mcp serve: the local gateway it bridges to', () => {
  it('speaks HTTPS to a gateway with gateway.tls on, HTTP otherwise', () => {
    expect(localUrl(gateway('127.0.0.1', true))).toBe('https://127.0.0.1:18789');
    expect(localUrl(gateway('127.0.0.1', false))).toBe('http://127.0.0.1:18789');
  });

  it('reaches a gateway listening on every address over loopback, and brackets an IPv6 bind', () => {
    expect(localUrl(gateway('0.0.0.0', false))).toBe('http://127.0.0.1:18789');
    expect(localUrl(gateway('::1', true))).toBe('https://[::1]:18789');
  });
});
