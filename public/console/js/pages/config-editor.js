// The config editor: the root openclaw.json as it is written (GET /admin/config/file: JSON5 with its comments and
// layout, literal secrets as "[redacted]"), with line numbers and a marker on each line the gateway finds fault
// with, checked as you type; a plan before anything is applied; then the text written back whole
// (PUT /admin/config/file with If-Match). A "[redacted]" left as it is keeps the secret the file holds there.
import { api, ApiError, revisionOf } from '../api.js';
import { actionButton, add, clear, errorBox, h, put } from '../dom.js';
import { codeView } from './code-view.js';
import { appliedView, planView } from './plan-view.js';
import { planPictures } from './plan-pictures.js';

const VALIDATE_DELAY_MS = 400;
const JSON5_TEXT = { 'Content-Type': 'application/json5' };

export async function configPage(ctx) {
  const admin = ctx.can('admin');
  const code = codeView({ id: 'config-editor', label: 'openclaw.json', readOnly: !admin });
  const editor = code.textarea;
  const checks = h('div', { id: 'config-checks', class: 'checks' });
  const planBox = h('div', { id: 'plan-box' });
  const revisionText = h('code', { id: 'config-revision' });
  const fileText = h('code', { id: 'config-path' });
  const includes = h('span', { id: 'config-includes', class: 'muted' });
  let loaded = null; // { text, revision, configPath }
  let planned = null; // the text of the last valid plan
  let timer;

  const applyButton = actionButton('Apply', () => apply(), { id: 'config-apply', class: 'primary', disabled: true });
  const planButton = actionButton('Preview plan', () => preview(), { id: 'config-plan' });
  const edited = () => {
    const text = editor.value;
    if (planned !== null && planned !== text) {
      planned = null;
      applyButton.disabled = true;
    }
    return text;
  };

  async function load() {
    const { body, etag } = await api('/admin/config/file');
    loaded = { text: body.text, revision: revisionOf(etag) ?? body.revision, configPath: body.configPath };
    revisionText.textContent = loaded.revision;
    fileText.textContent = body.configPath;
    includes.textContent = body.includes.length ? ` · includes ${body.includes.join(', ')} (edit those files in place)` : '';
    code.setText(body.text);
    code.markLines([]);
    planned = null;
    applyButton.disabled = true;
    put(
      checks,
      h('p', { class: 'muted' }, admin ? 'Edit the file; it is checked as you type.' : 'Read-only: editing needs the admin role.'),
    );
  }

  /** Issues of the root file get a marker on their line; those of an included file are only listed. */
  const inRoot = (issue) => !issue.file || issue.file === loaded.configPath;

  function goTo(event, line) {
    event.preventDefault(); // the link is only a button: the page's hash route stays
    code.goToLine(line);
  }

  /** The issues as a list; a line number jumps to the line. */
  function issueItems(issues, cls) {
    if (!issues?.length) return null;
    return h(
      'ul',
      { class: cls },
      issues.map((i) =>
        h(
          'li',
          {},
          i.line && inRoot(i)
            ? h('a', { href: '#', class: 'goto', onclick: (e) => goTo(e, i.line) }, `line ${i.line}`)
            : i.file
              ? h('span', {}, `${i.file}${i.line ? `:${i.line}` : ''}`)
              : null,
          i.line || i.file ? ' ' : '',
          h('code', {}, i.path || '(root)'),
          ': ',
          i.message,
        ),
      ),
    );
  }

  async function validate() {
    const text = edited();
    try {
      const { body } = await api('/admin/config/validate', { method: 'POST', body: text, headers: JSON5_TEXT });
      if (editor.value !== text) return;
      code.markLines(body.warnings.filter(inRoot));
      put(
        checks,
        h('p', { class: 'ok', id: 'config-valid' }, `valid (would be revision ${body.revision})`),
        issueItems(body.warnings, 'issues warnings'),
      );
    } catch (err) {
      if (editor.value !== text) return;
      if (err instanceof ApiError && err.status === 422) {
        const errors = err.errors.filter((i) => i.severity !== 'warning');
        code.markLines(errors.filter(inRoot));
        // A file that is not JSON5 at all is one issue at the root with a position: say so plainly.
        const syntax = errors.length === 1 && !errors[0].path && errors[0].line;
        put(
          checks,
          syntax
            ? h('p', { class: 'error', id: 'config-syntax' }, `not valid JSON5 (line ${errors[0].line}, column ${errors[0].column ?? 1}):`)
            : h('p', { class: 'error', id: 'config-invalid' }, 'invalid:'),
          issueItems(errors, 'issues errors'),
        );
      } else put(checks, errorBox(err));
    }
  }

  async function preview() {
    const text = edited();
    clear(planBox);
    if (text === loaded.text) {
      add(planBox, h('p', { class: 'empty', id: 'plan-unchanged' }, 'No change from the loaded revision.'));
      return;
    }
    const candidate = { document: text };
    try {
      const { body: plan } = await api('/admin/config/plan', { method: 'POST', body: candidate });
      if (!plan.valid) code.markLines(plan.errors.filter(inRoot));
      add(planBox, planView(plan), await planPictures(plan, candidate));
      if (plan.valid && plan.revision === loaded.revision) {
        planned = text;
        applyButton.disabled = false;
      } else if (plan.valid) {
        planBox.prepend(
          h('p', { class: 'error' }, `The gateway serves revision ${plan.revision} now, not ${loaded.revision}: reload before applying.`),
        );
      }
    } catch (err) {
      add(planBox, errorBox(err));
    }
  }

  async function apply() {
    if (planned === null || planned !== editor.value) return;
    try {
      const { body } = await api('/admin/config/file', {
        method: 'PUT',
        body: planned,
        headers: { ...JSON5_TEXT, 'If-Match': `"${loaded.revision}"` },
      });
      await load();
      put(planBox, appliedView(body));
    } catch (err) {
      if (err instanceof ApiError && err.status === 412) {
        planBox.prepend(
          h(
            'p',
            { class: 'error', id: 'config-stale' },
            'The config changed since you loaded it (412). Copy your edit, reload, and make it again on the new text.',
          ),
        );
      }
      planBox.prepend(errorBox(err));
      applyButton.disabled = true;
      planned = null;
    }
  }

  if (admin) {
    editor.addEventListener('input', () => {
      edited();
      clearTimeout(timer);
      timer = setTimeout(() => void validate(), VALIDATE_DELAY_MS);
    });
  }
  ctx.onLeave(() => clearTimeout(timer));
  add(
    ctx.main,
    h('h1', {}, 'Config'),
    h(
      'div',
      { class: 'toolbar' },
      fileText,
      ' · revision ',
      revisionText,
      includes,
      actionButton('Reload', () => load().then(() => clear(planBox))),
      admin ? [planButton, applyButton] : null,
      h('a', { href: 'openclaw.schema.json', download: 'openclaw.schema.json' }, 'JSON Schema'),
    ),
    h(
      'p',
      { class: 'muted' },
      'The file as it is written, comments included. Literal secrets show as "[redacted]": leave them so to keep them, ' +
        'or type the secret or its ${VAR}. Applying writes this text as the file.',
    ),
    h('div', { class: 'editor' }, code.root, checks),
    planBox,
  );
  await load();
}
