import type { IncomingHttpHeaders } from 'node:http';
import { snapshotFrom } from '../../../test/support/config-snapshot';
import type { GatewaySettings } from '../config';
import { requestForgeryRefusal } from './request-forgery';

/** The rules of docs/admin-security.md#cross-site-requests, one request at a time (the e2e spec runs every route). */
describe('requestForgeryRefusal', () => {
  let plain: GatewaySettings;
  let proxied: GatewaySettings;
  beforeAll(async () => {
    plain = (await snapshotFrom('{}')).config.gateway;
    proxied = (await snapshotFrom('{ gateway: { trustedProxies: ["10.0.3.7"], publicUrl: "https://clawgate.example/base/" } }')).config
      .gateway;
  });

  const write = (headers: IncomingHttpHeaders, method = 'POST', peer = '127.0.0.1') => ({
    method,
    headers: { host: 'gw.internal:18789', ...headers },
    socket: { remoteAddress: peer },
  });
  const detail = (req: ReturnType<typeof write>, gateway = plain) => requestForgeryRefusal(req, gateway)?.detail;
  const API = { 'x-clawgate-client': 'test' };

  it('never looks at reads', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'get']) {
      expect(detail(write({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }, method))).toBeUndefined();
    }
  });

  it('refuses what the browser marks cross-site or same-site, and believes it over the Origin', () => {
    expect(detail(write({ 'sec-fetch-site': 'cross-site', ...API }))).toContain('(Sec-Fetch-Site: cross-site)');
    expect(detail(write({ 'sec-fetch-site': 'Same-Site', ...API }))).toContain('(Sec-Fetch-Site: same-site)');
    expect(detail(write({ 'sec-fetch-site': 'same-origin', origin: 'http://elsewhere', ...API }))).toBeUndefined();
    expect(detail(write({ 'sec-fetch-site': 'none', ...API }))).toBeUndefined();
  });

  it('without Sec-Fetch-Site, compares the Origin with the host the request was sent to, default ports included', () => {
    expect(detail(write({ origin: 'http://gw.internal:18789', ...API }))).toBeUndefined();
    expect(detail(write({ origin: 'http://GW.internal:18789', ...API }))).toBeUndefined();
    expect(detail(write({ origin: 'https://gw.internal', host: 'gw.internal:443', ...API }))).toBeUndefined();
    expect(detail(write({ origin: 'http://[::1]:18789', host: '[::1]:18789', ...API }))).toBeUndefined();
    expect(detail(write({ origin: 'http://gw.internal:18790', ...API }))).toBe(
      "Origin http://gw.internal:18790 is not this gateway's origin; a page of another site may not change anything here",
    );
    expect(detail(write({ origin: 'null', ...API }))).toContain('Origin null is not');
    expect(detail(write({ origin: 'not a url', ...API }))).toContain('is not this gateway');
  });

  it('accepts gateway.publicUrl’s origin, and X-Forwarded-Host only from a trusted proxy', () => {
    expect(detail(write({ origin: 'https://clawgate.example', ...API }), proxied)).toBeUndefined();
    expect(detail(write({ origin: 'http://clawgate.example', ...API }), proxied)).toContain('is not');
    const forwarded = { origin: 'https://public.example', 'x-forwarded-host': 'public.example, inner.example', ...API };
    expect(detail(write(forwarded, 'POST', '10.0.3.7'), proxied)).toBeUndefined();
    expect(detail(write(forwarded, 'POST', '::ffff:10.0.3.7'), proxied)).toBeUndefined();
    expect(detail(write(forwarded, 'POST', '10.0.3.8'), proxied)).toContain('Origin https://public.example is not');
    expect(detail(write(forwarded, 'POST', '10.0.3.7'), plain)).toContain('is not');
  });

  it('takes JSON types or the client header as proof that no HTML form sent the write', () => {
    for (const type of [
      'application/json',
      'Application/JSON; charset=utf-8',
      'application/merge-patch+json',
      'application/json5',
      'application/vnd.x+json',
    ]) {
      expect(detail(write({ 'content-type': type }, 'PATCH'))).toBeUndefined();
    }
    expect(detail(write({ 'x-clawgate-client': '' }, 'DELETE'))).toBeUndefined();
    for (const type of [
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/plain',
      'text/plain; x=application/json',
      'application/jsonx',
    ]) {
      expect(detail(write({ 'content-type': type }))).toBe(
        'a request that changes something must have a JSON body (Content-Type: application/json) or the header X-Clawgate-Client ' +
          `(any value), which an HTML form cannot send; this one has Content-Type ${type} and no X-Clawgate-Client`,
      );
    }
    expect(detail(write({}, 'PUT'))).toContain('this one has no Content-Type and no X-Clawgate-Client');
  });
});
