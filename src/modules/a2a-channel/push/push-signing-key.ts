import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import type { JWK } from 'jose';
import { loadJose } from '../../../common/auth/jose-loader';
import { writeFileAtomic } from '../../../common/fs/atomic-write';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../../common/fs/private-files';
import { isPrivateEcJwk, type PushKeyStore } from '../store/push-key-store.port';

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
 * The gateway's push signing key (docs/a2a-push.md#signatures): an ES256 key pair made on first use, so receivers can
 * pin the JWKS across restarts. Each delivery carries a JWT whose claims bind it to its exact body
 * (`request_body_sha256`), its URL (`aud`), its task and event, with a short lifetime. The same key signs the Agent
 * Cards (agent-card-signature.ts), so a client checks both against the one published key set.
 *
 * Kept in the state dir's key file, or — when the task store is shared by replicas (`shared` answers a store) — in
 * that store, so all replicas sign with one key. A key file found while the shared store has none is imported rather
 * than replaced: receivers that pinned it keep verifying. The private half is never logged: messages name the `kid`.
 */
export class PushSigningKey {
  private loading?: Promise<Loaded>;
  private readonly logger = new Logger('a2a');

  constructor(
    private readonly file: string,
    /** The shared store of the chosen task backend, undefined for the key file (SQLite: one process). */
    private readonly shared: () => Promise<PushKeyStore | undefined> = () => Promise.resolve(undefined),
  ) {}

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

  /**
   * A JWS over `payload` with the payload detached (flattened JSON serialization without `payload`): the form of an
   * A2A AgentCardSignature. The protected header names the algorithm and this key's `kid`, plus `header`.
   */
  async signDetached(payload: string, header: { typ: string; jku?: string }): Promise<{ protected: string; signature: string }> {
    const { FlattenedSign } = await loadJose();
    const { key, publicJwk } = await this.load();
    const jws = await new FlattenedSign(new TextEncoder().encode(payload))
      .setProtectedHeader({ alg: ALG, kid: publicJwk.kid, ...header })
      .sign(key);
    return { protected: jws.protected ?? '', signature: jws.signature };
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
    const shared = await this.shared();
    const privateJwk = shared ? await this.fromShared(shared) : ((await this.readFile()) ?? (await this.createFile()));
    const publicJwk = await publicHalf(privateJwk);
    return { key: await jose.importJWK(privateJwk, ALG), publicJwk };
  }

  /** The shared key; the first replica to need one offers its key file's (imported) or a new one. */
  private async fromShared(store: PushKeyStore): Promise<JWK> {
    const stored = await store.stored();
    const file = await this.readFile();
    if (stored) {
      await this.warnIfFileDiffers(stored, file);
      return stored;
    }
    const candidate = file ?? (await generatePrivateJwk());
    const kept = await store.keepFirst(candidate, file ? 'imported' : 'generated');
    const { kid } = await publicHalf(kept);
    if (kept.d !== candidate.d) await this.warnIfFileDiffers(kept, file);
    else if (file)
      this.logger.log(`the push signing key ${kid} of ${this.file} is now the one every replica signs with (stored in PostgreSQL)`);
    else this.logger.log(`made the push signing key ${kid}, stored in PostgreSQL for every replica`);
    return kept;
  }

  private async warnIfFileDiffers(stored: JWK, file: JWK | undefined): Promise<void> {
    if (!file || file.d === stored.d) return;
    const [mine, theirs] = await Promise.all([publicHalf(file), publicHalf(stored)]);
    this.logger.warn(
      `the push signing key ${mine.kid} of ${this.file} is not used: replicas sign with ${theirs.kid}, stored in PostgreSQL`,
    );
  }

  /** The key file's key; undefined when there is none. A file that holds no key is an error that does not quote it. */
  private async readFile(): Promise<JWK | undefined> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    let jwk: unknown;
    try {
      jwk = JSON.parse(text);
    } catch {
      jwk = undefined;
    }
    if (!isPrivateEcJwk(jwk)) throw new Error(`the push signing key file ${this.file} does not hold a private P-256 JWK`);
    return jwk;
  }

  private async createFile(): Promise<JWK> {
    const privateJwk = await generatePrivateJwk();
    await fs.mkdir(path.dirname(this.file), { recursive: true, mode: PRIVATE_DIR_MODE });
    await writeFileAtomic(this.file, JSON.stringify(privateJwk), { newFileMode: PRIVATE_FILE_MODE });
    return privateJwk;
  }
}

async function generatePrivateJwk(): Promise<JWK> {
  const jose = await loadJose();
  const pair = await jose.generateKeyPair(ALG, { extractable: true });
  return jose.exportJWK(pair.privateKey);
}

/** The public half as published: without `d`, named by its RFC 7638 thumbprint. */
async function publicHalf(privateJwk: JWK): Promise<JWK> {
  const { d: _private, ...publicPart } = privateJwk;
  const kid = await (await loadJose()).calculateJwkThumbprint(publicPart);
  return { ...publicPart, kid, alg: ALG, use: 'sig' };
}
