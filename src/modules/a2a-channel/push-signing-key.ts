import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { JWK } from 'jose';
import { loadJose } from '../../common/auth/jose-loader';
import { writeFileAtomic } from '../../common/fs/atomic-write';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../common/fs/private-files';

/** The header every push delivery carries: a JWT the receiver verifies with the key at PUSH_JWKS_PATH. */
export const PUSH_SIGNATURE_HEADER = 'X-A2A-Push-Signature';
/** Where the gateway publishes the public key its push deliveries are signed with (a JSON Web Key Set). */
export const PUSH_JWKS_PATH = '/.well-known/a2a-push-jwks.json';
const ALG = 'ES256';
/** A signature is good for this long after it was made: a captured delivery cannot be replayed later. */
const SIGNATURE_LIFETIME_S = 300;

type SigningKey = Awaited<ReturnType<Awaited<ReturnType<typeof loadJose>>['importJWK']>>;

interface Loaded {
  key: SigningKey;
  publicJwk: JWK;
}

/** Where the private key lives in the state dir (0600, created on first use). */
export function pushSigningKeyPath(stateDir: string): string {
  return path.join(stateDir, 'a2a', 'push-signing-key.jwk');
}

/**
 * The gateway's push signing key (docs/a2a-push.md#signatures): an ES256 key pair made on first use and kept in the
 * state dir, so receivers can pin the JWKS across restarts. Each delivery carries a JWT whose claims bind it to its
 * exact body (`request_body_sha256`), its URL (`aud`), its task and event, with a short lifetime.
 */
export class PushSigningKey {
  private loading?: Promise<Loaded>;

  constructor(private readonly file: string) {}

  /** The public half as a JWKS (kid, alg, use). */
  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: [(await this.load()).publicJwk] };
  }

  async sign(claims: { url: string; body: string; taskId: string; event: number }): Promise<string> {
    const { SignJWT } = await loadJose();
    const { key, publicJwk } = await this.load();
    return new SignJWT({
      request_body_sha256: createHash('sha256').update(claims.body, 'utf8').digest('hex'),
      task_id: claims.taskId,
      event: claims.event,
    })
      .setProtectedHeader({ alg: ALG, kid: publicJwk.kid, typ: 'JWT' })
      .setAudience(claims.url)
      .setIssuedAt()
      .setExpirationTime(`${SIGNATURE_LIFETIME_S}s`)
      .setJti(randomUUID())
      .sign(key);
  }

  private load(): Promise<Loaded> {
    this.loading ??= this.readOrCreate().catch((err: unknown) => {
      this.loading = undefined; // a later delivery tries again
      throw err;
    });
    return this.loading;
  }

  private async readOrCreate(): Promise<Loaded> {
    const jose = await loadJose();
    let privateJwk: JWK;
    try {
      privateJwk = JSON.parse(await fs.readFile(this.file, 'utf8')) as JWK;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      const pair = await jose.generateKeyPair(ALG, { extractable: true });
      privateJwk = await jose.exportJWK(pair.privateKey);
      await fs.mkdir(path.dirname(this.file), { recursive: true, mode: PRIVATE_DIR_MODE });
      await writeFileAtomic(this.file, JSON.stringify(privateJwk), { newFileMode: PRIVATE_FILE_MODE });
    }
    const { d: _private, ...publicPart } = privateJwk;
    const kid = await jose.calculateJwkThumbprint(publicPart);
    return {
      key: await jose.importJWK(privateJwk, ALG),
      publicJwk: { ...publicPart, kid, alg: ALG, use: 'sig' },
    };
  }
}
