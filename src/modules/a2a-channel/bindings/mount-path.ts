/** Where the A2A endpoint is mounted; every path under it is the endpoint's to answer (404 for all but /v1). */
export const A2A_MOUNT = '/a2a';

/** `/a2a` followed by the end, a `/` or the query, in any letter case (express mount paths ignore case). */
const UNDER_MOUNT = /^\/a2a(?=[/?]|$)/i;
/** Characters that make express parse the target with url.parse instead of splitting it at `?` (parseurl). */
const NEEDS_FULL_PARSE = /[\t\n\f\r #\u00a0\ufeff]/;

/**
 * The path of a request target relative to the `/a2a` mount, exactly as express's `req.path` gives it inside
 * `app.use('/a2a', …)` (`/v1` for `/a2a/v1?x`, `/` for `/a2a`); undefined when the target is not under the
 * mount or is not a plain origin-form target (`http://host/a2a/v1`, or one with `#`): those go to the express
 * mount of the same endpoint, so express's own parsing decides them.
 */
export function a2aSubpath(url: string | undefined): string | undefined {
  if (url === undefined || !UNDER_MOUNT.test(url) || NEEDS_FULL_PARSE.test(url)) return undefined;
  const query = url.indexOf('?', A2A_MOUNT.length);
  const rest = query < 0 ? url.slice(A2A_MOUNT.length) : url.slice(A2A_MOUNT.length, query);
  return rest || '/';
}
