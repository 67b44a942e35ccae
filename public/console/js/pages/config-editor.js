// The config editor: openclaw.json as the API serves it (includes merged, secrets as [redacted] or ${VAR}),
// checked as you type, a plan before anything is applied, then applied as a JSON Merge Patch with If-Match.
import { api, ApiError, revisionOf } from '../api.js';
import { actionButton, add, clear, errorBox, h, issueList, put } from '../dom.js';
import { createMergePatch, redactedPaths } from '../merge-patch.js';
import { appliedView, planView } from './plan-view.js';
import { planPictures } from './plan-pictures.js';

const VALIDATE_DELAY_MS = 400;

/** Line and column of a JSON.parse error position, for the message next to the editor. */
function where(text, message) {
  const at = /position (\d+)/.exec(message);
  if (!at) return '';
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  return ` (line ${line}, column ${before.length - before.lastIndexOf('\n')})`;
}

export async function configPage(ctx) {
  const admin = ctx.can('admin');
  const editor = h('textarea', { id: 'config-editor', spellcheck: 'false', rows: 30, readOnly: !admin, 'aria-label': 'openclaw.json' });
  const checks = h('div', { id: 'config-checks', class: 'checks' });
  const planBox = h('div', { id: 'plan-box' });
  const revisionText = h('code', { id: 'config-revision' });
  let loaded = null; // { document, revision }
  let planned = null; // { text, patch } of the last valid plan
  let timer;

  const applyButton = actionButton('Apply', () => apply(), { id: 'config-apply', class: 'primary', disabled: true });
  const planButton = actionButton('Preview plan', () => preview(), { id: 'config-plan' });
  const edited = () => {
    const text = editor.value;
    if (planned && planned.text !== text) {
      planned = null;
      applyButton.disabled = true;
    }
    return text;
  };

  async function load() {
    const { body, etag } = await api('/admin/config');
    loaded = { document: body.document, revision: revisionOf(etag) ?? body.revision };
    revisionText.textContent = loaded.revision;
    editor.value = JSON.stringify(body.document, null, 2);
    planned = null;
    applyButton.disabled = true;
    put(
      checks,
      h('p', { class: 'muted' }, admin ? 'Edit the document; it is checked as you type.' : 'Read-only: editing needs the admin role.'),
    );
  }

  /** The edited document and its patch against what was loaded; throws a message the operator can act on. */
  function candidate(text) {
    let doc;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new Error(`not valid JSON${where(text, err.message)}: ${err.message}`);
    }
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('the document must be a JSON object');
    const patch = createMergePatch(loaded.document, doc);
    const marked = patch ? redactedPaths(patch) : [];
    if (marked.length) {
      throw new Error(
        `the change would write "[redacted]" over a secret at ${marked.join(', ')}: change that value in the file itself, or type the secret (or a \${VAR}) in full`,
      );
    }
    return { doc, patch };
  }

  async function validate() {
    const text = edited();
    clear(checks);
    let doc;
    try {
      ({ doc } = candidate(text));
    } catch (err) {
      add(checks, h('p', { class: 'error', id: 'config-syntax' }, err.message));
      return;
    }
    try {
      const { body } = await api('/admin/config/validate', { method: 'POST', body: doc });
      if (editor.value !== text) return;
      add(
        checks,
        h('p', { class: 'ok', id: 'config-valid' }, `valid (would be revision ${body.revision})`),
        issueList(body.warnings, 'issues warnings'),
      );
    } catch (err) {
      if (editor.value !== text) return;
      if (err instanceof ApiError && err.status === 422) {
        add(checks, h('p', { class: 'error', id: 'config-invalid' }, 'invalid:'), issueList(err.errors, 'issues errors'));
      } else add(checks, errorBox(err));
    }
  }

  async function preview() {
    const text = edited();
    clear(planBox);
    let patch;
    try {
      ({ patch } = candidate(text));
    } catch (err) {
      add(planBox, h('p', { class: 'error' }, err.message));
      return;
    }
    if (!patch) {
      add(planBox, h('p', { class: 'empty', id: 'plan-unchanged' }, 'No change from the loaded revision.'));
      return;
    }
    try {
      const { body: plan } = await api('/admin/config/plan', { method: 'POST', body: { mergePatch: patch } });
      add(planBox, planView(plan), await planPictures(plan, { mergePatch: patch }));
      if (plan.valid && plan.revision === loaded.revision) {
        planned = { text, patch };
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
    if (!planned || planned.text !== editor.value) return;
    try {
      const { body } = await api('/admin/config', {
        method: 'PATCH',
        body: planned.patch,
        headers: { 'Content-Type': 'application/merge-patch+json', 'If-Match': `"${loaded.revision}"` },
      });
      await load();
      put(planBox, appliedView(body));
    } catch (err) {
      if (err instanceof ApiError && err.status === 412) {
        planBox.prepend(
          h(
            'p',
            { class: 'error', id: 'config-stale' },
            'The config changed since you loaded it (412). Reload to see it; your text is kept below the new one.',
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
      'Revision ',
      revisionText,
      actionButton('Reload', () => load().then(() => clear(planBox))),
      admin ? [planButton, applyButton] : null,
      h('a', { href: 'openclaw.schema.json', download: 'openclaw.schema.json' }, 'JSON Schema'),
    ),
    h(
      'p',
      { class: 'muted' },
      'The document shows the merged file (includes resolved). Secrets appear as [redacted] and stay as they are unless you replace them. ' +
        'Applying sends only what you changed, as a JSON Merge Patch against the file, which keeps its comments.',
    ),
    h('div', { class: 'editor' }, editor, checks),
    planBox,
  );
  await load();
}
