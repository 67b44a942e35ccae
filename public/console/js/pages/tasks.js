// A2A tasks: the list with its filters, one task with its reply, and the operator's cancel.
import { api, seg } from '../api.js';
import { actionButton, add, clear, errorBox, h, put, table, time } from '../dom.js';

const STATES = ['SUBMITTED', 'WORKING', 'INPUT_REQUIRED', 'COMPLETED', 'FAILED', 'CANCELED', 'REJECTED', 'AUTH_REQUIRED'].map(
  (s) => `TASK_STATE_${s}`,
);
const OVER = new Set(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED']);
const stateText = (s) => h('span', { class: `state ${s.toLowerCase()}` }, s.replace('TASK_STATE_', ''));

export async function tasksPage(ctx) {
  if (ctx.params.length) return taskDetail(ctx, ctx.params[0]);
  const peer = h('input', { id: 'tasks-peer', placeholder: 'peer', size: 12 });
  const state = h(
    'select',
    { id: 'tasks-state' },
    h('option', { value: '' }, 'any state'),
    STATES.map((s) => h('option', { value: s }, s.replace('TASK_STATE_', ''))),
  );
  const context = h('input', { id: 'tasks-context', placeholder: 'contextId', size: 16 });
  const list = h('div', { id: 'tasks-list' });
  const load = async () => {
    const q = new URLSearchParams({ limit: '100' });
    if (peer.value.trim()) q.set('peer', peer.value.trim());
    if (state.value) q.set('state', state.value);
    if (context.value.trim()) q.set('contextId', context.value.trim());
    try {
      const { body } = await api(`/admin/a2a/tasks?${q}`);
      put(
        list,
        table(
          [
            ['Task', (t) => h('a', { href: `#/tasks/${seg(t.id)}` }, t.id)],
            ['Peer', (t) => t.peer],
            ['Agent', (t) => h('code', {}, t.agentId)],
            ['State', (t) => stateText(t.state)],
            ['Context', (t) => h('code', { class: 'small' }, t.contextId)],
            ['Updated', (t) => time(t.updatedAt)],
          ],
          body.tasks,
          { empty: 'No A2A tasks match.' },
        ),
      );
    } catch (err) {
      put(list, errorBox(err));
    }
  };
  for (const el of [peer, state, context]) el.addEventListener('change', () => void load());
  add(
    ctx.main,
    h('h1', {}, 'A2A tasks'),
    h('div', { class: 'toolbar filters' }, peer, state, context, actionButton('Refresh', load)),
    list,
  );
  await load();
  ctx.every(5000, () => void load());
}

async function taskDetail(ctx, id) {
  const body = h('div', { id: 'task' });
  const note = h('div');
  const draw = async () => {
    const { body: t } = await api(`/admin/a2a/tasks/${seg(id)}`);
    put(
      body,
      h(
        'dl',
        { class: 'facts' },
        ...[
          ['State', stateText(t.state)],
          ['Peer', t.peer],
          ['Agent', t.agentId],
          ['Session', h('a', { href: `#/sessions/${seg(t.sessionKey)}` }, t.sessionKey)],
          ['Context', t.contextId],
          ['Run', t.runId ? h('a', { href: `#/runs/${seg(t.runId)}`, id: 'task-run' }, t.runId) : '—'],
          ['Created', time(t.createdAt)],
          ['Updated', time(t.updatedAt)],
          ['Status message', t.statusMessage?.text ?? '—'],
        ].flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
      ),
      h('h2', {}, 'Reply'),
      t.artifact ? h('div', { class: 'text reply' }, t.artifact.text) : h('p', { class: 'empty' }, 'No reply (yet).'),
      ctx.can('operator') && !OVER.has(t.state)
        ? actionButton(
            'Cancel task',
            async () => {
              clear(note);
              try {
                await api(`/admin/a2a/tasks/${seg(id)}/cancel`, { method: 'POST' });
              } catch (err) {
                add(note, errorBox(err));
              }
              await draw();
            },
            { class: 'danger', id: 'task-cancel' },
          )
        : null,
    );
  };
  add(ctx.main, h('p', {}, h('a', { href: '#/tasks' }, '← all tasks')), h('h1', {}, 'Task ', h('code', {}, id)), note, body);
  await draw();
}
