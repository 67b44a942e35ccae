import { isPlainObject } from '../../../common/is-record';

/**
 * The model provider ids OpenClaw has built in (its bundled provider plugins: docs/providers/*.md and
 * docs/concepts/model-providers.md of the openclaw/docs repository, April to August 2026). A model reference
 * to one of them that clawgate has no definition for is recognised: it loads with a warning that says to
 * define the provider in models.providers, and a run on it goes on to its fallbacks. Any other undefined
 * provider is a typo and an error.
 */
export const OPENCLAW_PROVIDER_IDS: ReadonlySet<string> = new Set(
  `alibaba amazon-bedrock anthropic anthropic-vertex arcee baseten bedrock-mantle byteplus byteplus-plan cerebras chutes
  claude-cli claude-max-api-proxy clawrouter cloudflare-ai-gateway cohere deepinfra deepseek featherless fireworks gmi
  github-copilot google google-gemini-cli google-vertex groq huggingface inferrs kilocode kimi litellm lmstudio longcat
  meta minimax minimax-portal mistral moonshot novita nvidia ollama ollama-cloud openai openai-codex opencode opencode-go
  openrouter perplexity qianfan qwen sglang stepfun synthetic tencent together venice vercel-ai-gateway vllm volcengine
  volcengine-plan xai xiaomi zai`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * The model providers a document names outside models.providers: OpenClaw's auth profiles
 * (`auth.profiles.<id>.provider`) and plugins (`plugins.entries`, `plugins.installs`), which bring providers of
 * their own in OpenClaw. Read before those sections are set aside.
 */
export function providersNamedElsewhere(doc: unknown): Set<string> {
  const names = new Set<string>();
  if (!isPlainObject(doc)) return names;
  const profiles = isPlainObject(doc.auth) ? doc.auth.profiles : undefined;
  if (isPlainObject(profiles)) {
    for (const profile of Object.values(profiles)) {
      if (isPlainObject(profile) && typeof profile.provider === 'string') names.add(profile.provider);
    }
  }
  const plugins = isPlainObject(doc.plugins) ? doc.plugins : undefined;
  for (const map of [plugins?.entries, plugins?.installs]) if (isPlainObject(map)) for (const id of Object.keys(map)) names.add(id);
  return names;
}
