/**
 * An opaque page cursor: the position (a timestamp and a row number) of the last entry of a page, as
 * base64url. Keyset pages of every listing use it (admin sessions, A2A ListTasks); it names no entry and
 * reveals nothing but where a page ended.
 */
export function encodePosition(at: number, seq: number): string {
  return Buffer.from(`${at}.${seq}`, 'utf8').toString('base64url');
}

/** The position, or undefined for a token no listing issued. */
export function decodePosition(token: string): { at: number; seq: number } | undefined {
  const match = /^(\d{1,16})\.(\d{1,16})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return match ? { at: Number(match[1]), seq: Number(match[2]) } : undefined;
}
