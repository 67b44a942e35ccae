/**
 * An error a caller can act on. Thrown by services; turned into problem+json by the HTTP filter (and into
 * JSON-RPC errors by the A2A layer), so handlers never build error responses themselves.
 */
export class DomainError extends Error {
  constructor(
    /** HTTP status the admin API answers with. */
    public readonly status: number,
    /** Short, stable summary, e.g. "Config validation failed". */
    public readonly title: string,
    /** What happened in this case. Never contains a secret. */
    public readonly detail: string,
    /** Itemized problems (config issues, field errors). */
    public readonly errors?: ReadonlyArray<Record<string, unknown>>,
  ) {
    super(detail);
    this.name = 'DomainError';
  }
}

export const notFound = (detail: string) => new DomainError(404, 'Not found', detail);
export const badRequest = (detail: string, errors?: ReadonlyArray<Record<string, unknown>>) =>
  new DomainError(400, 'Bad request', detail, errors);
