import { createHash } from 'node:crypto';
import type { MemorySettings } from '../config';
import { BundledEmbedder } from './bundled-embedder';
import type { Embedder } from './embedder.port';
import { StaticEmbedder, StaticEmbedderOptions } from './static-embedder';
import { DEFAULT_OPENAI_BASE_URL, DEFAULT_OPENAI_EMBEDDING_MODEL, OpenAiEmbedder } from './openai-embedder';

/**
 * The embedder for `memory.embeddings`, or undefined for `none`. `bundled-static` keeps its table under
 * `bundled.stateDir` (in memory only without one). The openai key falls back to
 * OPENAI_API_KEY, like the openai model provider.
 */
export function createEmbedder(
  settings: MemorySettings['embeddings'],
  env: NodeJS.ProcessEnv,
  bundled: StaticEmbedderOptions = {},
): Embedder | undefined {
  switch (settings.provider) {
    case 'none':
      return undefined;
    case 'openai':
      return new OpenAiEmbedder({
        baseUrl: settings.baseUrl ?? DEFAULT_OPENAI_BASE_URL,
        apiKey: settings.apiKey ?? env.OPENAI_API_KEY,
        model: settings.model ?? DEFAULT_OPENAI_EMBEDDING_MODEL,
      });
    case 'bundled-static':
      return new StaticEmbedder(bundled);
    default:
      return new BundledEmbedder(bundled);
  }
}

/**
 * Identity of the settings, to tell whether a reload changed the embedder. The key enters only as a digest;
 * a rotated key builds a new client but keeps the fingerprint, so nothing is re-embedded.
 */
export function embedderSettingsKey(settings: MemorySettings['embeddings'], env: NodeJS.ProcessEnv): string {
  const key = settings.apiKey ?? (settings.provider === 'openai' ? env.OPENAI_API_KEY : undefined);
  const keyDigest = key ? createHash('sha256').update(key).digest('hex').slice(0, 16) : '';
  return JSON.stringify([settings.provider, settings.baseUrl, settings.model, keyDigest]);
}
