import { promises as fs } from 'node:fs';
import { ConfigLoadError, type TlsSettings } from './modules/config';

/** The PEM files of the listener, as Node's HTTPS server takes them. */
export interface ListenerTls {
  cert: Buffer;
  key: Buffer;
  ca?: Buffer;
}

/**
 * The HTTPS options of the listener from `gateway.tls`, or undefined for plain HTTP. The files are read once, at
 * start (a changed path needs a restart; pendingRestart names gateway.tls). A file that cannot be read fails the
 * start like an invalid config (the CLI exits 78), naming the key and the path, never anything of the contents.
 */
export async function listenerTlsOptions(tls: TlsSettings): Promise<ListenerTls | undefined> {
  if (!tls.enabled) return undefined;
  const [cert, key, ca] = await Promise.all([
    readPem('gateway.tls.certPath', tls.certPath),
    readPem('gateway.tls.keyPath', tls.keyPath),
    tls.caPath === undefined ? undefined : readPem('gateway.tls.caPath', tls.caPath),
  ]);
  return { cert, key, ...(ca !== undefined ? { ca } : {}) };
}

async function readPem(key: string, file: string): Promise<Buffer> {
  try {
    return await fs.readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new ConfigLoadError([{ path: key, message: `cannot read ${file} (${code})` }]);
  }
}
