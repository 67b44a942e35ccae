/** `scheme://<userinfo>@…`: anything before an `@` in the authority part (a user name alone counts too). */
const URL_USERINFO = /^(\s*[a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i;

/** True when `value` is a URL with a user name or password in it (`http://user:password@host`). */
export function hasUrlCredentials(value: string): boolean {
  return URL_USERINFO.test(value);
}

/** `value` with the userinfo of a URL replaced by `***`, for messages that quote a URL. */
export function withoutUrlCredentials(value: string): string {
  return value.replace(URL_USERINFO, '$1***@');
}
