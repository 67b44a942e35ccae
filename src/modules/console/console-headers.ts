/**
 * The headers of every console file. The page holds no data (every figure comes from the admin API), so it may be
 * served to anyone; what protects the operator is that nothing but our own files can run in it: scripts, styles
 * and fetches from this origin only, no inline code, no framing, no referrer leaking a URL elsewhere.
 * `blob:` images: the topology picture is fetched with the caller's credentials and shown from an object URL.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  // Revalidated on every load, so an upgraded gateway never runs the previous console's scripts.
  'Cache-Control': 'no-cache',
};
