// The editor's text area with a gutter: line numbers, and a marker on each line an issue names (its messages in
// the marker's title). No editor library: a <textarea> keeps typing, undo, selection and accessibility native,
// and the gutter follows its scroll. Lines are not wrapped, so a line number is always one row.
import { h, put } from '../dom.js';

/** { root, textarea, setText(text), markLines(issues), goToLine(line) } */
export function codeView({ id, label, readOnly }) {
  const textarea = h('textarea', { id, spellcheck: 'false', wrap: 'off', readOnly, 'aria-label': label });
  const gutter = h('div', { class: 'gutter', id: `${id}-gutter`, 'aria-hidden': 'true' });
  const root = h('div', { class: `code-view${readOnly ? ' readonly' : ''}` }, gutter, textarea);
  let marks = new Map(); // line → messages
  let drawnLines = -1; // the line count the gutter shows; -1 once the marks changed

  function drawGutter() {
    const count = textarea.value.split('\n').length;
    if (count === drawnLines) return; // typing within a line: nothing to redraw
    drawnLines = count;
    const rows = [];
    for (let line = 1; line <= count; line++) {
      const messages = marks.get(line);
      rows.push(
        h(
          'div',
          { class: messages ? 'line marked' : 'line', dataset: { line: String(line) }, title: messages ? messages.join('\n') : undefined },
          String(line),
        ),
      );
    }
    put(gutter, rows);
    gutter.scrollTop = textarea.scrollTop;
  }

  textarea.addEventListener('input', drawGutter);
  textarea.addEventListener('scroll', () => {
    gutter.scrollTop = textarea.scrollTop;
  });

  return {
    root,
    textarea,
    setText(text) {
      textarea.value = text;
      drawnLines = -1;
      drawGutter();
    },
    /** Marks the lines of these issues ({line, message, path}); issues without a line mark nothing. */
    markLines(issues) {
      marks = new Map();
      for (const issue of issues) {
        if (!issue.line) continue;
        const text = `${issue.path ? `${issue.path}: ` : ''}${issue.message}`;
        marks.set(issue.line, [...(marks.get(issue.line) ?? []), text]);
      }
      drawnLines = -1;
      drawGutter();
    },
    /** Puts the caret at the start of a line and scrolls it into view. */
    goToLine(line) {
      const lines = textarea.value.split('\n');
      const at = lines.slice(0, Math.max(0, line - 1)).reduce((n, l) => n + l.length + 1, 0);
      textarea.focus();
      textarea.setSelectionRange(at, at + (lines[line - 1]?.length ?? 0));
      const rowHeight = textarea.scrollHeight / Math.max(1, lines.length);
      textarea.scrollTop = Math.max(0, (line - 5) * rowHeight);
    },
  };
}
