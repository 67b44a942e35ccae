import { promises as dns } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isLiteralHost, nonPublicCategory } from './address-policy';
import { RefusedAddressError } from './outbound-error';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name → addresses. Injectable so tests can point a public-looking name at a local address. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The `lookup` signature net.connect / tls.connect call (and undici's connector passes through). */
export type ConnectLookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * A `lookup` for the socket connector that resolves the name and refuses it when any address it resolves
 * to is non-public. Because the check runs inside the connect of the very socket that is opened, the
 * address checked is the address dialled: a name cannot pass a check with one answer and then connect with
 * another (no DNS-rebinding window). IP literals never reach a lookup (net dials them directly); they and
 * `localhost` are named explicitly by the operator and allowed as such (see address-policy.ts).
 */
export function guardedLookup(resolver: HostResolver): ConnectLookup {
  return (hostname, options, callback) => {
    resolver(hostname).then(
      (addresses) => {
        const wanted = options?.family === 4 || options?.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        if (!wanted.length) {
          const err: NodeJS.ErrnoException = new Error(`${hostname} did not resolve to any address`);
          err.code = 'ENOTFOUND';
          return callback(err, '');
        }
        if (!isLiteralHost(hostname)) {
          for (const a of wanted) {
            const category = nonPublicCategory(a.address);
            if (category) {
              return callback(
                new RefusedAddressError(
                  `${hostname} resolves to a ${category} address (${a.address}); outbound calls to non-public addresses need the URL to name the host literally (an IP address or localhost)`,
                ),
                '',
              );
            }
          }
        }
        if (options?.all)
          return callback(
            null,
            wanted.map((a) => ({ address: a.address, family: a.family })),
          );
        callback(null, wanted[0].address, wanted[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
