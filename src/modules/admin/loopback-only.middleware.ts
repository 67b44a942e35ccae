import type { NextFunction, Request, Response } from 'express';

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped form. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/**
 * Until admin authentication is configured the admin API and its docs answer only to clients on this
 * machine, whatever `gateway.bind` says: an unauthenticated config API must never be reachable remotely.
 */
export function loopbackOnly(req: Request, res: Response, next: NextFunction): void {
  if (isLoopbackAddress(req.socket.remoteAddress)) return next();
  res
      .status(403)
      .type('application/problem+json')
      .send(
        JSON.stringify({
          type: 'about:blank',
          title: 'Forbidden',
          status: 403,
          detail: 'the admin API only answers on loopback until admin authentication is configured',
      }),
    );
}
