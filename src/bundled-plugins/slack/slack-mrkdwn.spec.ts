import { markdownToMrkdwn } from './slack-mrkdwn';

describe('markdownToMrkdwn', () => {
  it('renders bold, italic, strike, links and headings in Slack mrkdwn', () => {
    expect(markdownToMrkdwn('**bold** and *italic* and _also_ and ~~gone~~')).toBe('*bold* and _italic_ and _also_ and ~gone~');
    expect(markdownToMrkdwn('see [the docs](https://example.com/a?b=1&c=2)')).toBe('see <https://example.com/a?b=1&amp;c=2|the docs>');
    expect(markdownToMrkdwn('# Title\ntext')).toBe('*Title*\ntext');
  });

  it('escapes &, < and > so that text never becomes a mention or a link', () => {
    expect(markdownToMrkdwn('a < b & c > d <!channel> <@U123>')).toBe('a &lt; b &amp; c &gt; d &lt;!channel&gt; &lt;@U123&gt;');
  });

  it('leaves code alone (escaped), and drops a fence language', () => {
    expect(markdownToMrkdwn('run `a **b** <c>` now')).toBe('run `a **b** &lt;c&gt;` now');
    expect(markdownToMrkdwn('```ts\nconst x = a && *b*;\n```\nafter **that**')).toBe('```\nconst x = a &amp;&amp; *b*;\n```\nafter *that*');
  });
});
