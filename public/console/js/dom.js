// Small DOM helpers. Every value from the API enters the page as text (textContent, attributes), never as
// HTML, so nothing a config, transcript or task contains can run in the console.

/**
 * Builds an element: h('a', { href: '#/x', class: 'k', onclick: fn }, 'text', child).
 * `null`/`undefined`/`false` children are skipped; arrays are flattened.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

/** Appends children like h() does: skips null/undefined/false, flattens arrays (Element.append would print "null"). */
export function add(el, ...children) {
  append(el, children);
  return el;
}

/** Replaces an element's children with these (as add() takes them). */
export function put(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A local, readable time for an ISO timestamp (the ISO value stays in the title). */
export function time(iso) {
  if (!iso) return h('span', {}, '—');
  const date = new Date(iso);
  return h('time', { datetime: iso, title: iso }, Number.isNaN(date.getTime()) ? iso : date.toLocaleString());
}

/** A table from rows: columns are [header, row => cell content]. */
export function table(columns, rows, { empty = 'Nothing here yet.', rowClass } = {}) {
  if (!rows.length) return h('p', { class: 'empty' }, empty);
  return h(
    'table',
    {},
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map(([title]) => h('th', {}, title)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((row) =>
        h(
          'tr',
          { class: rowClass?.(row) },
          columns.map(([, cell]) => h('td', {}, cell(row))),
        ),
      ),
    ),
  );
}

/** A problem (ApiError) or any error as a visible message. */
export function errorBox(err) {
  const items = Array.isArray(err?.errors) ? err.errors : [];
  return h(
    'div',
    { class: 'error', role: 'alert' },
    h('strong', {}, err?.status ? `${err.status} ` : '', err?.message ?? String(err)),
    items.length
      ? h(
          'ul',
          {},
          items.map((i) => h('li', {}, h('code', {}, i.path ?? ''), ' ', i.message ?? JSON.stringify(i))),
        )
      : null,
  );
}

/** A list of config issues ({path, message, line?}). */
export function issueList(issues, cls = 'issues') {
  if (!issues?.length) return null;
  return h(
    'ul',
    { class: cls },
    issues.map((i) => h('li', {}, h('code', {}, i.path || '(root)'), i.line ? ` (line ${i.line})` : '', ': ', i.message)),
  );
}

/** A pre block for JSON or a diff; diff lines get classes so additions and removals stand out. */
export function codeBlock(text, { diff = false } = {}) {
  if (!diff) return h('pre', { class: 'code' }, text);
  return h(
    'pre',
    { class: 'code diff' },
    text.split('\n').map((line) => {
      const cls = line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : '';
      return h('span', { class: cls }, line + '\n');
    }),
  );
}

/** A button that runs an async action once at a time, showing it is busy. */
export function actionButton(label, action, props = {}) {
  const button = h('button', { type: 'button', ...props }, label);
  button.addEventListener('click', async () => {
    if (button.disabled) return;
    button.disabled = true;
    button.classList.add('busy');
    try {
      await action();
    } finally {
      button.disabled = false;
      button.classList.remove('busy');
    }
  });
  return button;
}
