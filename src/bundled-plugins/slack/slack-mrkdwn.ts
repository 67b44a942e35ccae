/**
 * The agent's Markdown as Slack's mrkdwn (https://api.slack.com/reference/surfaces/formatting): `**bold**` →
 * `*bold*`, `*italic*` / `_italic_` → `_italic_`, `~~strike~~` → `~strike~`, `[text](url)` → `<url|text>`, a
 * heading → a bold line; code spans and fenced blocks stay as they are (a fence loses its language, which Slack
 * would show as text). `&`, `<` and `>` are escaped everywhere, as Slack requires, so text can never turn into a
 * mention (`<!channel>`) or a link it did not write.
 */
export function markdownToMrkdwn(markdown: string): string {
  const out: string[] = [];
  // Fenced blocks and code spans are cut out first: nothing inside them is formatting.
  const pattern = /```[^\n`]*\n?([\s\S]*?)```|`([^`\n]+)`/g;
  let last = 0;
  for (const match of markdown.matchAll(pattern)) {
    out.push(inline(markdown.slice(last, match.index)));
    out.push(match[2] !== undefined ? `\`${escape(match[2])}\`` : `\`\`\`\n${escape(match[1].replace(/\n$/, ''))}\n\`\`\``);
    last = match.index + match[0].length;
  }
  out.push(inline(markdown.slice(last)));
  return out.join('');
}

const BOLD = '\u0001';

function inline(text: string): string {
  return escape(text)
    .replace(/^#{1,6}\s+(.+?)\s*#*$/gm, `${BOLD}$1${BOLD}`)
    .replace(
      /\[([^\]\n]+)\]\((https?:\/\/[^)\s]+|mailto:[^)\s]+)\)/g,
      (_m, label: string, url: string) => `<${url}|${label.replace(/\|/g, '¦')}>`,
    )
    .replace(/\*\*(?=\S)([^*\n]+?)\*\*|__(?=\S)([^_\n]+?)__/g, (_m, a?: string, b?: string) => `${BOLD}${a ?? b}${BOLD}`)
    .replace(/(^|[^\w*])\*(?=\S)([^*\n]+?)\*(?!\w)/g, '$1_$2_')
    .replace(/~~(?=\S)([^~\n]+?)~~/g, '~$1~')
    .replaceAll(BOLD, '*');
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
