import { markdownToTelegramHtml } from './markdown-html';

describe('markdownToTelegramHtml', () => {
  it.each([
    ['plain & <b>raw</b> text', 'plain &amp; &lt;b&gt;raw&lt;/b&gt; text'],
    ['**bold**, __also__, *it*, _it_, ~~gone~~', '<b>bold</b>, <b>also</b>, <i>it</i>, <i>it</i>, <s>gone</s>'],
    ['snake_case_name and 2*3*4 stay', 'snake_case_name and 2*3*4 stay'],
    ['`a < b && c`', '<code>a &lt; b &amp;&amp; c</code>'],
    [
      '[docs](https://x.test/a?b=1&c="2") and [bad](javascript:alert(1))',
      '<a href="https://x.test/a?b=1&amp;c=&quot;2&quot;">docs</a> and [bad](javascript:alert(1))',
    ],
    ['# Title\n- one\n- **two**', '<b>Title</b>\n• one\n• <b>two</b>'],
    ['> quoted\n> lines', '<blockquote>quoted\nlines</blockquote>'],
    ['**unclosed bold', '**unclosed bold'],
  ])('%j', (markdown, html) => {
    expect(markdownToTelegramHtml(markdown)).toBe(html);
  });

  it('keeps code blocks verbatim, escaped, with their language, and closes one still streaming', () => {
    expect(markdownToTelegramHtml('```ts\nif (a < b) { **x** }\n```\nafter')).toBe(
      '<pre><code class="language-ts">if (a &lt; b) { **x** }</code></pre>\nafter',
    );
    expect(markdownToTelegramHtml('```\nhalf written')).toBe('<pre><code>half written</code></pre>');
  });
});
