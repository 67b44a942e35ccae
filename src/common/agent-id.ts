/** The id used when an agent id is empty or cannot be salvaged. */
export const DEFAULT_AGENT_ID = 'main';

/** A canonical agent id: lowercase `[a-z0-9][a-z0-9_-]{0,63}` (so it can never contain `:` or `/`). */
const CANONICAL_AGENT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const VALID_AGENT_ID = new RegExp(CANONICAL_AGENT_ID.source, 'i');

/** True when `id` is already a canonical agent id (no normalization applied). */
export function isCanonicalAgentId(id: string): boolean {
  return CANONICAL_AGENT_ID.test(id);
}

/**
 * Canonical agent id: trimmed, lowercase, `[a-z0-9_-]`, at most 64 chars. Ids that are already valid are
 * only lowercased; anything else has runs of other characters turned into `-` so `"Code Bot!"` becomes
 * `code-bot`, and loses leading `-`/`_` (a canonical id starts with a letter or digit, and session keys
 * accept only canonical ids) and trailing `-`. An id with nothing usable left becomes `main`.
 */
export function normalizeAgentId(raw: string | undefined | null): string {
  const trimmed = (raw ?? '').trim();
  if (!trimmed) return DEFAULT_AGENT_ID;
  if (VALID_AGENT_ID.test(trimmed)) return trimmed.toLowerCase();
  const cleaned = trimmed
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/g, '');
  return cleaned || DEFAULT_AGENT_ID;
}
