import { suggestClosest } from '../../../common/text/did-you-mean';
import type { ModelApi } from '../config.types';
import { MODEL_APIS, OPENCLAW_MODEL_APIS } from '../schema/models.schema';
import type { NormalizeContext } from './normalize-context';

/**
 * OpenClaw's `api` kinds that clawgate speaks, mapped onto its own protocols. `ollama` is Ollama's native API in
 * OpenClaw; clawgate calls the same server through its OpenAI-compatible endpoint (`<baseUrl>/v1`).
 */
const SPOKEN: Readonly<Record<string, ModelApi>> = {
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  'anthropic-messages': 'anthropic-messages',
  echo: 'echo',
  'openai-completions': 'openai-chat',
  ollama: 'openai-chat',
};

const KNOWN = [...new Set<string>([...MODEL_APIS, ...OPENCLAW_MODEL_APIS])];

export interface MappedApi {
  api: ModelApi | 'unsupported';
  /** The kind as written, when it is not clawgate's own name. */
  asWritten?: string;
}

/**
 * The protocol for an `api` value written at `at`. An OpenClaw kind clawgate does not speak gives a warning and
 * `unsupported` (its models are skipped, runs go on to their fallbacks); a name neither knows is an error.
 */
export function mapModelApi(ctx: NormalizeContext, written: string, at: string, owner: string): MappedApi | undefined {
  const spoken = Object.hasOwn(SPOKEN, written) ? SPOKEN[written] : undefined;
  if (spoken) return spoken === written ? { api: spoken } : { api: spoken, asWritten: written };
  if (KNOWN.includes(written)) {
    ctx.warnings.push({
      path: at,
      message: `OpenClaw api kind ${ctx.quoter.quote(at, written)} is not supported by clawgate (it speaks openai-chat / openai-completions / ollama, openai-responses and anthropic-messages): ${owner} cannot be called, and a run whose model is on it goes on to its fallbacks`,
    });
    return { api: 'unsupported', asWritten: written };
  }
  const hint = suggestClosest(written, KNOWN);
  ctx.errors.push({
    path: at,
    message: `unknown api ${ctx.quoter.quote(at, written)}${hint ? ` (did you mean "${hint}"?)` : ''}; one of: ${KNOWN.join(', ')}`,
  });
  return undefined;
}

/** Ollama's OpenAI-compatible endpoint lives under /v1 of the server OpenClaw's `ollama` kind points at. */
export function ollamaOpenAiBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}
