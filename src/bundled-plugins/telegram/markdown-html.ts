/**
 * The agent's Markdown as Telegram HTML (https://core.telegram.org/bots/api#html-style). HTML rather than
 * MarkdownV2 because its escaping is three characters (`&`, `<`, `>`) instead of eighteen, so a half-written reply
 * streamed mid-sentence still parses. What Telegram cannot show (headings, lists) becomes bold and bullets; an
 * unclosed `**` stays as typed; an unclosed code fence (a reply still streaming) is closed.
 */
export function markdownToTelegramHtml(markdown: string): string {
  const out: string[] = [];
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let quote: string[] = [];
  const flushQuote = (): void => {
    if (quote.length) out.push(`<blockquote>${quote.join('\n')}</blockquote>`);
    quote = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*(```+|~~~+)\s*([\w+#.-]*)\s*$/.exec(line);
    if (fence) {
      flushQuote();
      const code: string[] = [];
      let j = i + 1;
      while (j < lines.length && !lines[j].trim().startsWith(fence[1])) code.push(lines[j++]);
      const language = fence[2] ? ` class="language-${escapeHtml(fence[2])}"` : '';
      out.push(`<pre><code${language}>${escapeHtml(code.join('\n'))}</code></pre>`);
      i = j;
      continue;
    }
    const quoted = /^\s*>\s?(.*)$/.exec(line);
    if (quoted) {
      quote.push(inline(quoted[1]));
      continue;
    }
    flushQuote();
    const heading = /^\s*#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      out.push(`<b>${inline(heading[1])}</b>`);
      continue;
    }
    const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
    if (bullet) {
      out.push(`${bullet[1]}• ${inline(bullet[2])}`);
      continue;
    }
    out.push(inline(line));
  }
  flushQuote();
  return out.join('\n');
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeHtml(text).replace(/"/g, '&quot;');
}

/** Inline code and links are taken out first (their content is not Markdown; a private-use character marks
 * where each goes back), the rest escaped, then emphasis. */
function inline(text: string): string {
  const held: string[] = [];
  const hold = (html: string): string => `\uE000${held.push(html) - 1}\uE000`;
  let rest = text.replace(/`([^`\n]+)`/g, (_, code: string) => hold(`<code>${escapeHtml(code)}</code>`));
  rest = rest.replace(/\[([^\]\n]+)\]\(([^)\s]+)\)/g, (whole, label: string, url: string) =>
    /^(https?:|mailto:|tg:)/i.test(url) ? hold(`<a href="${escapeAttribute(url)}">${emphasis(escapeHtml(label))}</a>`) : whole,
  );
  rest = emphasis(escapeHtml(rest));
  return rest.replace(/\uE000(\d+)\uE000/g, (_, n: string) => held[Number(n)]);
}

function emphasis(escaped: string): string {
  return escaped
    .replace(/\*\*(?=\S)([^*]*?\S)\*\*/g, '<b>$1</b>')
    .replace(/__(?=\S)([^_]*?\S)__/g, '<b>$1</b>')
    .replace(/~~(?=\S)([^~]*?\S)~~/g, '<s>$1</s>')
    .replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g, '$1<i>$2</i>')
    .replace(/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g, '$1<i>$2</i>');
}
