import type { IncomingHttpHeaders } from 'node:http';
import { isTrustedAddress } from '../../common/net/trusted-proxies';
import type { GatewaySettings } from '../config';
import { type AdminDenial, isWriteMethod } from './admin-principal';
import { forwardingProxies, peerAddress, type PeerRequest } from './peer-address';

/**
 * The header a non-form client sends with an admin write that has no JSON body (the console, the CLI, Swagger UI;
 * curl with `-H 'X-Clawgate-Client: curl'`). Any value: what matters is that a page of another site cannot add a
 * header of its own without the browser asking the gateway first (a CORS preflight), which it never allows.
 */
export const CLIENT_HEADER = 'X-Clawgate-Client';

/** What the check reads of a request; an express Request is one. */
export interface WriteRequest extends PeerRequest {
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
}

/** Media types a plain HTML form cannot send: the JSON the admin API reads (and application/*+json). */
const JSON_TYPE = /^application\/(?:json|json5|[\w.-]+\+json)$/;

/**
 * Why an admin write must be refused as a forged cross-site request, or undefined when it may go on
 * (docs/admin-security.md#cross-site-requests). Reads and non-browser clients are never refused by the first two
 * checks; every write must pass the third:
 *
 * 1. `Sec-Fetch-Site` (set by the browser, not by the page): `cross-site` and `same-site` are refused — a sibling
 *    subdomain is another application, and the console is served by the gateway itself.
 * 2. Without it (older browsers), an `Origin` that is not the gateway's own: `gateway.publicUrl`, or the host the
 *    request was sent to (`Host`; `X-Forwarded-Host` from a trusted proxy). A page cannot set either header on a
 *    request to another site, so the comparison cannot be steered; the scheme is not compared (TLS may end at a proxy).
 * 3. A JSON content type or the `X-Clawgate-Client` header: a form (urlencoded, multipart, text/plain) can carry
 *    neither, whatever browser sends it — the check that holds when 1 and 2 have nothing to read.
 */
export function requestForgeryRefusal(req: WriteRequest, gateway: GatewaySettings): AdminDenial | undefined {
  if (!isWriteMethod(req.method)) return undefined;
  const site = single(req.headers['sec-fetch-site'])?.toLowerCase();
  if (site === 'cross-site' || site === 'same-site') {
    return refusal(`a ${site} browser request may not change anything here (Sec-Fetch-Site: ${site}); use the console of this origin`);
  }
  const origin = single(req.headers.origin);
  if (site !== 'same-origin' && site !== 'none' && origin !== undefined && !isOwnOrigin(origin, req, gateway)) {
    return refusal(`Origin ${origin} is not this gateway's origin; a page of another site may not change anything here`);
  }
  if (isJson(req.headers['content-type']) || typeof req.headers[CLIENT_HEADER.toLowerCase()] === 'string') return undefined;
  const type = single(req.headers['content-type']);
  return refusal(
    `a request that changes something must have a JSON body (Content-Type: application/json) or the header ${CLIENT_HEADER} ` +
      `(any value), which an HTML form cannot send; this one has ${type ? `Content-Type ${type}` : 'no Content-Type'} and no ${CLIENT_HEADER}`,
  );
}

function refusal(detail: string): AdminDenial {
  return { status: 403, detail };
}

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value.trim() : undefined;
}

function isJson(contentType: string | undefined): boolean {
  const essence = contentType?.split(';')[0].trim().toLowerCase();
  return essence !== undefined && JSON_TYPE.test(essence);
}

/** `origin` (scheme://host[:port], or "null") is gateway.publicUrl's, or names the host the request was sent to. */
function isOwnOrigin(origin: string, req: WriteRequest, gateway: GatewaySettings): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (a sandboxed or file: page) and anything unparsable
  }
  if (gateway.publicUrl && new URL(gateway.publicUrl).origin === url.origin) return true;
  const defaultPort = url.protocol === 'https:' ? ':443' : ':80';
  return requestHosts(req, gateway).some((host) => host === url.host || host === `${url.host}${defaultPort}`);
}

/** The host the client addressed: Host, and the first X-Forwarded-Host when a trusted proxy relayed the request. */
function requestHosts(req: WriteRequest, gateway: GatewaySettings): string[] {
  const hosts = [single(req.headers.host)];
  if (isTrustedAddress(peerAddress(req), forwardingProxies(gateway))) {
    hosts.push(single(req.headers['x-forwarded-host'])?.split(',')[0].trim());
  }
  return hosts.filter((host): host is string => !!host).map((host) => host.toLowerCase());
}

/**
 * Swagger UI's "Try it out" runs in the browser, so its writes need the header too. @nestjs/swagger writes this
 * function into the page as its source text (Function.prototype.toString): it must refer to nothing outside itself.
 */
export function swaggerClientHeader(request: { headers: Record<string, string> }): { headers: Record<string, string> } {
  request.headers['X-Clawgate-Client'] = 'swagger-ui';
  return request;
}
