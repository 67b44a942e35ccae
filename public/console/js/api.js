// Every call of the console goes to the admin API of this origin. Credentials: an admin token typed into the
// sign-in form (kept in memory and in this tab's sessionStorage, never in localStorage, a URL or a log), or
// none at all — behind the SSO proxy the proxy adds the identity to every same-origin request.

const TOKEN_KEY = 'clawgate.console.token';
let token = sessionStorage.getItem(TOKEN_KEY) || null;

export function hasToken() {
  return token !== null;
}

export function setToken(value) {
  token = value || null;
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** A refused or failed call: the problem+json detail, its status and its itemized errors. */
export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.errors = body?.errors ?? [];
  }
}

// On every call: the gateway refuses an admin write that is neither JSON nor carries this header, which an HTML form
// of another site cannot send (docs/admin-security.md#cross-site-requests); the body-less ones (reload, cancel) need it.
const CLIENT_HEADER = { 'X-Clawgate-Client': 'console' };

function headersFor(extra, hasBody) {
  const headers = { Accept: 'application/json, application/problem+json', ...CLIENT_HEADER, ...extra };
  if (hasBody && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

async function readBody(res) {
  const type = res.headers.get('content-type') || '';
  if (res.status === 204 || res.status === 304) return null;
  if (type.includes('json')) return res.json().catch(() => null);
  return res.text();
}

/**
 * Calls the admin API: `api('/admin/config/status')`, `api(path, { method: 'POST', body, headers })`.
 * A JSON body is serialized unless it is already a string. Resolves with { status, etag, body }; rejects with
 * ApiError for any status ≥ 400 (except those listed in `accept`).
 */
export async function api(path, { method = 'GET', body, headers = {}, accept = [] } = {}) {
  const hasBody = body !== undefined;
  const res = await fetch(path, {
    method,
    headers: headersFor(headers, hasBody),
    body: hasBody ? (typeof body === 'string' ? body : JSON.stringify(body)) : undefined,
    credentials: 'same-origin',
    cache: 'no-store',
  });
  const data = await readBody(res);
  if (res.status >= 400 && !accept.includes(res.status)) {
    const message = (data && (data.detail || data.title)) || `${method} ${path} answered ${res.status}`;
    throw new ApiError(res.status, message, data);
  }
  return { status: res.status, etag: res.headers.get('etag'), body: data };
}

/** Fetches a binary resource (the topology picture) with the same credentials; resolves with { status, blob }. */
export async function apiBlob(path, init = {}) {
  const res = await fetch(path, {
    method: init.method ?? 'GET',
    headers: headersFor(init.headers ?? {}, init.body !== undefined),
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    credentials: 'same-origin',
    cache: 'no-store',
  });
  if (!res.ok) return { status: res.status, blob: null };
  return { status: res.status, blob: await res.blob() };
}

/** The revision inside an ETag header ("3f9a…" → 3f9a…). */
export function revisionOf(etag) {
  return etag ? etag.replace(/^W\//, '').replace(/^"|"$/g, '') : null;
}

/** encodeURIComponent for path segments (session keys hold colons). */
export const seg = (value) => encodeURIComponent(value);
