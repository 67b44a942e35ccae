import { maskSecrets } from '../../common/secrets/secret-mask';

/**
 * What a transcript export writes, whoever asks — `GET /admin/sessions/:key/export` and `clawgate sessions export`
 * alike: each chunk of whole JSONL lines with every configured secret masked by the shared masker. In the gateway the
 * masker knows the served config's secrets (the admin module's SecretShield registers them); the CLI registers those
 * of the config it loads before it reads a chunk. A secret never spans two lines, so masking chunk by chunk misses none.
 */
export async function* maskedExport(chunks: Iterable<string> | AsyncIterable<string>): AsyncGenerator<string> {
  for await (const chunk of chunks) yield maskSecrets(chunk);
}
