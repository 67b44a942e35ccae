import type * as Jose from 'jose';

/** The part of jose the gateway uses. */
export type JoseApi = Pick<
  typeof Jose,
  | 'createRemoteJWKSet'
  | 'jwtVerify'
  | 'SignJWT'
  | 'FlattenedSign'
  | 'generateKeyPair'
  | 'exportJWK'
  | 'importJWK'
  | 'calculateJwkThumbprint'
>;

/**
 * jose 6 is ESM-only and this build is CommonJS, where TypeScript rewrites `import()` into `require()`.
 * A Function-wrapped `import()` stays a real dynamic import, which every Node 20 can do from CommonJS.
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- a fixed string, the only way to keep import()
const nativeImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<JoseApi>;

let provided: JoseApi | undefined;
let loading: Promise<JoseApi> | undefined;

/** jose, loaded on first use (only gateways that verify SSO assertions or sign push deliveries or cards pay for it). */
export function loadJose(): Promise<JoseApi> {
  if (provided) return Promise.resolve(provided);
  loading ??= nativeImport('jose').catch((err: unknown) => {
    loading = undefined; // let the next request try again
    throw err;
  });
  return loading;
}

/**
 * Hands the gateway a jose instance instead of importing it. For hosts that cannot `import()` ESM — jest's
 * module sandbox without --experimental-vm-modules is one — the test support loads jose itself and passes
 * it here. Production never calls this.
 */
export function provideJose(api: JoseApi): void {
  provided = api;
}
