/**
 * Text from the config as a DOT string: Graphviz copies label text into the SVG, escaping `<`, `>` and `"` but
 * leaving anything that looks like an entity (`&lt;`, `&#60;`) alone, so `&` is escaped here first. Control
 * characters (not allowed in XML) become spaces, and a long line is cut so one name cannot take over the picture;
 * several lines are joined with DOT's own line break.
 */
const MAX_LABEL_CHARS = 64;

export function dotString(text: string | readonly string[], maxChars = MAX_LABEL_CHARS): string {
  const lines = typeof text === 'string' ? [text] : text;
  return `"${lines.map((line) => escapeLine(line, maxChars)).join('\\n')}"`;
}

function escapeLine(text: string, maxChars: number): string {
  // eslint-disable-next-line no-control-regex
  let clean = text.replace(/[\u0000-\u001f\u007f]/g, ' ');
  if ([...clean].length > maxChars) clean = `${[...clean].slice(0, maxChars - 1).join('')}…`;
  return clean.replace(/&/g, '&amp;').replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** Attributes whose value is text from the config: always through dotString. */
const TEXT_ATTRIBUTES = new Set(['label', 'xlabel', 'tooltip', 'headlabel', 'taillabel']);

/**
 * `key="value", …` for a DOT attribute list. Text attributes are escaped with dotString; the others are the
 * builder's own values (colors, styles, numbers), quoted as they are.
 */
export function dotAttributes(attributes: Record<string, string | readonly string[] | number | undefined>): string {
  return Object.entries(attributes)
    .filter((entry): entry is [string, string | readonly string[] | number] => entry[1] !== undefined)
    .map(
      ([key, value]) =>
        `${key}=${TEXT_ATTRIBUTES.has(key) && typeof value !== 'number' ? dotString(value) : JSON.stringify(String(value))}`,
    )
    .join(', ');
}
