/**
 * How a PostgreSQL store names its server in errors and logs: host, port and database, never the user's password.
 * Apart from postgres.ts so that the CLI can recognise the error without loading the driver.
 */

/** `host:port/database` of a connection URL: what a log line or an error may show (no user, no password). */
export function postgresTarget(url: string): string {
  try {
    const parsed = new URL(url);
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}${database ? `/${database}` : ''}`;
  } catch {
    return 'the configured server';
  }
}

/** A store could not reach (or was refused by) its PostgreSQL server at start; the message names the server only. */
export class PostgresUnavailableError extends Error {
  override readonly name = 'PostgresUnavailableError';
}

/**
 * An error of the driver as a start failure that names the server: the driver's own message can quote the
 * user, never the password, but is passed through the URL's password anyway in case a future one does.
 */
export function postgresStartError(url: string, what: string, err: unknown): PostgresUnavailableError {
  const password = passwordOf(url);
  let reason = err instanceof Error ? err.message || err.constructor.name : String(err);
  if ((err as { code?: string }).code && !reason.includes((err as { code: string }).code)) reason += ` (${(err as { code: string }).code})`;
  if (password) reason = reason.split(password).join('***');
  return new PostgresUnavailableError(`${what}: PostgreSQL at ${postgresTarget(url)} is unreachable or refused: ${reason}`);
}

function passwordOf(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}
