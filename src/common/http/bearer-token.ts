/**
 * How much of the header after `Bearer ` is the credential:
 * - `rest-of-value`: everything after the scheme, trimmed (may contain spaces) — http channel and A2A peers;
 * - `single-word`: exactly one whitespace-free word, anything more is no credential — admin tokens, which
 *   also read JWT assertions this way and fall back to the raw header when it is not a bearer word.
 * The two differ on purpose (their specs pin `Bearer a b`), so every caller names the one it wants.
 */
export type BearerSyntax = 'rest-of-value' | 'single-word';

const SYNTAX: Record<BearerSyntax, RegExp> = {
  'rest-of-value': /^Bearer[ \t]+(\S.*)$/i,
  'single-word': /^Bearer[ \t]+(\S+)[ \t]*$/i,
};

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or undefined. */
export function bearerToken(header: string | string[] | undefined, syntax: BearerSyntax): string | undefined {
  // Only a single string value can carry one credential; an array is refused, not searched.
  if (typeof header !== 'string') return undefined;
  const match = SYNTAX[syntax].exec(header.trim());
  return match ? match[1].trim() : undefined;
}
