// Plugins: every plugin found or given in code with its status, one plugin's detail with its masked config, and
// enabling or disabling one (a config write: PATCH /admin/config with If-Match, admin role, as every config write).
import { api, ApiError, seg } from '../api.js';
import { actionButton, add, clear, codeBlock, errorBox, h, put, table, time } from '../dom.js';

const SOURCES = { 'load-path': 'path', extensions: 'extensions', bundled: 'bundled', code: 'code' };

const statusText = (p) => h('span', { class: `state plugin-${p.status}` }, p.status);

/** `tools: a, b · channels: c`, or null when the list is empty. */
function contractsText(contracts) {
  if (!contracts) return null;
  const parts = ['tools', 'channels', 'providers', 'mcpServers']
    .filter((kind) => contracts[kind]?.length)
    .map((kind) => `${kind}: ${contracts[kind].join(', ')}`);
  return parts.length ? parts.join(' · ') : null;
}

/** Why it is not active: its reason and the errors of its code (the reason often quotes the error: once), as text. */
function whyText(p) {
  const errors = (p.errors ?? []).filter((e) => !p.reason?.includes(e));
  return [p.reason, ...errors].filter(Boolean).join(' — ');
}

/**
 * Can this plugin be switched with `plugins.entries.<id>.enabled`? Not one given in code (the code decides), nor a
 * refused one (its files or manifest must be fixed first; enabling does not lift a refusal).
 */
const switchable = (p) => p.source !== 'code' && p.status !== 'refused';

/**
 * The enable/disable control for one plugin. The write goes against the revision the page was drawn from, so a
 * config changed meanwhile answers 412 and nothing is overwritten; the note says what happened and what to do.
 */
function switchControl(ctx, p, revision, note, redraw) {
  if (!switchable(p)) return null;
  const enable = p.status === 'disabled';
  const label = enable ? 'Enable' : 'Disable';
  if (!ctx.can('admin')) {
    return h('button', { type: 'button', class: 'small', disabled: true, title: 'Config writes need the admin role' }, label);
  }
  return actionButton(
    label,
    async () => {
      clear(note);
      try {
        const { body: result } = await api('/admin/config', {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/merge-patch+json', 'If-Match': `"${revision()}"` },
          body: { plugins: { entries: { [p.id]: { enabled: enable } } } },
        });
        add(
          note,
          h(
            'p',
            { class: 'ok', id: 'plugin-write-ok' },
            `${p.id} ${enable ? 'enabled' : 'disabled'}: revision ${result.revision}`,
            result.pendingRestart?.length ? ` (waits for a restart: ${result.pendingRestart.join(', ')})` : '',
          ),
        );
      } catch (err) {
        add(note, writeError(err));
      }
      await redraw();
    },
    { class: enable ? 'small primary' : 'small danger', dataset: { plugin: p.id, action: enable ? 'enable' : 'disable' } },
  );
}

/** A refused write, with what to do for the refusals an operator meets here. */
function writeError(err) {
  const box = errorBox(err);
  box.id = 'plugin-write-error';
  if (err instanceof ApiError && (err.status === 412 || err.status === 409)) {
    add(
      box,
      h(
        'p',
        {},
        err.status === 412
          ? 'The config changed since this page was read, so nothing was written. The page now shows the current state: check it and try again.'
          : 'The config cannot be edited right now (see above), so nothing was written.',
      ),
    );
  }
  return box;
}

/** The revision served now (the If-Match of the next write). */
async function currentRevision() {
  return (await api('/admin/config/status')).body.revision;
}

export async function pluginsPage(ctx) {
  if (ctx.params.length) return pluginDetail(ctx, ctx.params[0]);
  const note = h('div', { id: 'plugins-note' });
  const list = h('div', { id: 'plugins-list' });
  let revision = null;
  const draw = async () => {
    try {
      // The revision first: a write made with it fails (412) if the config moved after the list was read.
      revision = await currentRevision();
      const { body } = await api('/admin/plugins');
      put(
        list,
        table(
          [
            ['Id', (p) => h('a', { href: `#/plugins/${seg(p.id)}` }, p.id)],
            ['Name', (p) => p.name ?? ''],
            ['Version', (p) => p.version ?? ''],
            ['Source', (p) => SOURCES[p.source] ?? p.source],
            ['Status', (p) => [statusText(p), whyText(p) ? h('div', { class: 'small why' }, whyText(p)) : null]],
            ['Contracts', (p) => contractsText(p.declared) ?? h('span', { class: 'muted' }, '—')],
            ['', (p) => switchControl(ctx, p, () => revision, note, draw)],
          ],
          body.plugins,
          { empty: 'No plugin is found or given in code.', rowClass: (p) => `plugin-row status-${p.status}` },
        ),
      );
      for (const [i, row] of list.querySelectorAll('tbody tr').entries()) row.dataset.plugin = body.plugins[i].id;
    } catch (err) {
      put(list, errorBox(err));
    }
  };
  add(
    ctx.main,
    h('h1', {}, 'Plugins'),
    h(
      'p',
      { class: 'muted' },
      'Found in plugins.load.paths, <stateDir>/extensions/ and the bundled ones, or given in code. Enabling or disabling one writes ',
      h('code', {}, 'plugins.entries.<id>.enabled'),
      ' (admin role).',
    ),
    h(
      'div',
      { class: 'toolbar' },
      actionButton('Refresh', () => draw()),
    ),
    note,
    list,
  );
  await draw();
}

async function pluginDetail(ctx, id) {
  const note = h('div', { id: 'plugins-note' });
  const body = h('div', { id: 'plugin' });
  let revision = null;
  const draw = async () => {
    try {
      revision = await currentRevision();
      const { body: p } = await api(`/admin/plugins/${seg(id)}`);
      put(
        body,
        h(
          'div',
          { class: 'toolbar' },
          switchControl(ctx, p, () => revision, note, draw),
        ),
        h(
          'dl',
          { class: 'facts' },
          ...[
            ['Status', statusText(p)],
            ['Why', whyText(p) || '—'],
            ['Name', p.name ?? '—'],
            ['Description', p.description ?? '—'],
            ['Version', p.version ?? '—'],
            ['Source', SOURCES[p.source] ?? p.source],
            ['Root', p.root ? h('code', {}, p.root) : '—'],
            ['Since', time(p.since)],
            ['Declares', contractsText(p.declared) ?? '—'],
          ].flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
        ),
        p.errors?.length
          ? [
              h('h2', {}, 'Errors'),
              h(
                'ul',
                { class: 'issues errors' },
                p.errors.map((e) => h('li', {}, e)),
              ),
            ]
          : null,
        h('h2', {}, 'Registered'),
        registeredList(p.registered),
        h('h2', {}, 'Config'),
        h('p', { class: 'muted' }, h('code', {}, `plugins.entries.${p.id}.config`), ', secrets shown as [redacted]'),
        codeBlock(JSON.stringify(p.config ?? {}, null, 2)),
      );
    } catch (err) {
      put(body, errorBox(err));
    }
  };
  add(ctx.main, h('p', {}, h('a', { href: '#/plugins' }, '← all plugins')), h('h1', {}, 'Plugin ', h('code', {}, id)), note, body);
  await draw();
}

function registeredList(registered) {
  const kinds = ['tools', 'channels', 'mcpServers', 'routes', 'services', 'hooks'].filter((k) => registered?.[k]?.length);
  if (!kinds.length) return h('p', { class: 'empty' }, 'Nothing (it registers only while active).');
  return h(
    'dl',
    { class: 'facts', id: 'plugin-registered' },
    ...kinds.flatMap((k) => [
      h('dt', {}, k),
      h(
        'dd',
        {},
        registered[k].map((v) => h('code', { class: 'block' }, v)),
      ),
    ]),
  );
}
