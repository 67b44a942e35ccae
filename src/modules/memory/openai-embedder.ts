import { request } from 'undici';
import type { EmbedOptions, Embedder } from './embedder.port';
import { normalize } from './vector-matrix';

export interface OpenAiEmbedderSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
}

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com';
export const DEFAULT_OPENAI_EMBEDDING_MODEL = 'text-embedding-3-small';
/** Inputs per request: well under the API's limit of 2048, keeping each request small. */
const INPUTS_PER_REQUEST = 64;
const MAX_ERROR_CHARS = 300;

/**
 * `openai`: any OpenAI-compatible `POST {baseUrl}/v1/embeddings` ({model, input: [...]} → {data: [{index,
 * embedding}]}), Bearer apiKey when one is set (local servers often need none).
 */
export class OpenAiEmbedder implements Embedder {
  readonly fingerprint: string;
  private readonly url: string;

  constructor(private readonly settings: OpenAiEmbedderSettings) {
    // `{baseUrl}/v1/embeddings`, tolerating a baseUrl that already ends in /v1 (as chat providers are written).
    const base = settings.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
    this.url = `${base}/v1/embeddings`;
    this.fingerprint = `openai:${base}:${settings.model}`;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += INPUTS_PER_REQUEST) {
      out.push(...(await this.request(texts.slice(i, i + INPUTS_PER_REQUEST), options.signal)));
    }
    return out;
  }

  private async request(input: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const timeout = AbortSignal.timeout(this.settings.timeoutMs ?? 30_000);
    const res = await request(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: this.settings.model, input }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) {
      throw new Error(`embeddings endpoint answered HTTP ${res.statusCode}: ${errorMessage(text)}`);
    }
    const body = JSON.parse(text) as { data?: Array<{ index?: number; embedding?: unknown }> };
    if (!Array.isArray(body.data) || body.data.length !== input.length) {
      throw new Error(
        `embeddings endpoint returned ${Array.isArray(body.data) ? body.data.length : 'no'} vectors for ${input.length} inputs`,
      );
    }
    const vectors = new Array<Float32Array>(input.length);
    body.data.forEach((d, i) => {
      if (!Array.isArray(d.embedding) || !d.embedding.every((x) => typeof x === 'number')) {
        throw new Error('embeddings endpoint returned an item without a numeric embedding');
      }
      vectors[typeof d.index === 'number' ? d.index : i] = normalize(d.embedding);
    });
    return vectors;
  }
}

function errorMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string };
    const m = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message;
    if (typeof m === 'string') return m.slice(0, MAX_ERROR_CHARS);
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.slice(0, MAX_ERROR_CHARS) || '(empty body)';
}
