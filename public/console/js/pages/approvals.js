// Approvals: the tool calls that wait for an operator (an agent's tools.requiresApproval), with what the tool would be
// called with and where the work came from, decided here (operator) with an optional note; and the decided ones.
import { api, seg } from '../api.js';
import { actionButton, add, clear, codeBlock, errorBox, h, put, table, time } from '../dom.js';

const DECIDED_STATES = ['approved', 'denied', 'expired', 'withdrawn'];
const LIST_LIMIT = 100;
const stateText = (state) => h('span', { class: `state approval-${state}` }, state);

/** `in 9m 58s` until an ISO time; `due` once it is past (the gateway then counts the call as denied). */
function remaining(iso) {
  const ms = Date.parse(iso) - Date.now();
  if (!(ms > 0)) return 'due';
  const s = Math.ceil(ms / 1000);
  const parts = [
    Math.floor(s / 3600) && `${Math.floor(s / 3600)}h`,
    Math.floor(s / 60) % 60 && `${Math.floor(s / 60) % 60}m`,
    `${s % 60}s`,
  ];
  return `in ${parts.filter(Boolean).join(' ')}`;
}

/** A countdown the page's one-second tick updates in place (so the table is not redrawn every second). */
const countdown = (iso) => h('time', { class: 'countdown', datetime: iso, title: new Date(iso).toLocaleString() }, remaining(iso));

/** Where the work came from: channel and caller, the A2A task (linked), the session (linked). */
function origin(a) {
  return h(
    'div',
    { class: 'origin' },
    h('code', {}, a.caller ? `${a.channel}:${a.caller}` : a.channel),
    a.taskId ? h('div', { class: 'small' }, 'task ', h('a', { href: `#/tasks/${seg(a.taskId)}`, class: 'approval-task' }, a.taskId)) : null,
    h('div', { class: 'small' }, 'session ', h('a', { href: `#/sessions/${seg(a.sessionKey)}` }, a.sessionKey)),
  );
}

/** The arguments as the model wrote them: pretty JSON, as text. */
const argsBlock = (a) => codeBlock(JSON.stringify(a.args ?? {}, null, 2));

export async function approvalsPage(ctx) {
  const operator = ctx.can('operator');
  const note = h('div', { id: 'approvals-note' });
  const pendingList = h('div', { id: 'approvals-pending' });
  const decidedList = h('div', { id: 'approvals-decided' });
  const pendingTitle = h('h2', {}, 'Waiting for a decision');
  const filter = h(
    'select',
    { id: 'approvals-filter', title: 'Which decided calls to list' },
    h('option', { value: '' }, 'all decided'),
    DECIDED_STATES.map((s) => h('option', { value: s }, s)),
  );
  // What the operator typed into a row's note field, by approval id: kept across the redraws of the poll.
  const typed = new Map();
  let last = null;

  const decide = async (a, decision) => {
    clear(note);
    const words = typed.get(a.id)?.trim();
    try {
      const { body: d } = await api(`/admin/approvals/${seg(a.id)}/${decision}`, {
        method: 'POST',
        body: words ? { note: words } : undefined,
      });
      typed.delete(a.id);
      add(note, h('p', { class: 'ok', id: 'approvals-decided-ok' }, `${d.state} ${d.tool} for agent ${d.agentId} (approval ${d.id})`));
    } catch (err) {
      const box = errorBox(err);
      box.id = 'approvals-error';
      add(note, box);
    }
    await draw(true);
  };

  const decisionCell = (a) => {
    const reason = operator ? undefined : 'Deciding needs the operator role';
    const input = h('input', {
      class: 'approval-note',
      placeholder: 'note (optional)',
      value: typed.get(a.id) ?? '',
      disabled: !operator,
      title: reason ?? 'Why: kept with the decision; a denial gives it to the model',
      dataset: { approval: a.id },
    });
    input.addEventListener('input', () => typed.set(a.id, input.value));
    const button = (label, decision, cls) =>
      operator
        ? actionButton(label, () => decide(a, decision), { class: `small ${cls}`, dataset: { action: decision } })
        : h('button', { type: 'button', class: 'small', disabled: true, title: reason, dataset: { action: decision } }, label);
    return h(
      'div',
      { class: 'decision' },
      input,
      h('span', { class: 'actions' }, button('Approve', 'approve', 'primary'), ' ', button('Deny', 'deny', 'danger')),
    );
  };

  const pendingTable = (items) =>
    table(
      [
        ['Tool', (a) => [h('code', {}, a.tool), h('div', { class: 'small muted' }, 'agent ', h('code', {}, a.agentId))]],
        ['Arguments', argsBlock],
        ['From', origin],
        ['Requested', (a) => time(a.requestedAt)],
        ['Expires', (a) => countdown(a.expiresAt)],
        ['Decision', decisionCell],
      ],
      items,
      { empty: 'No tool call waits for a decision.', rowClass: () => 'approval-row approval-pending' },
    );

  const decidedTable = (items) =>
    table(
      [
        ['State', (a) => stateText(a.state)],
        ['Tool', (a) => [h('code', {}, a.tool), h('div', { class: 'small muted' }, 'agent ', h('code', {}, a.agentId))]],
        ['Arguments', argsBlock],
        ['From', origin],
        ['Requested', (a) => time(a.requestedAt)],
        [
          'Decided',
          (a) => [
            time(a.decidedAt),
            a.decidedBy ? h('div', { class: 'small' }, 'by ', h('code', { class: 'decided-by' }, a.decidedBy)) : null,
          ],
        ],
        ['Note', (a) => (a.note ? h('span', { class: 'text approval-note-text' }, a.note) : '—')],
        [
          'Resumed by',
          (a) => (a.resumedBy ? h('code', { class: 'small', title: 'The run that went on after a restart' }, a.resumedBy) : '—'),
        ],
      ],
      items,
      {
        empty: filter.value ? `No ${filter.value} call among the latest ${LIST_LIMIT}.` : 'Nothing decided yet.',
        rowClass: (a) => `approval-row approval-${a.state}`,
      },
    );

  /** Reads both lists; redraws only when something changed (`force` after a decision), keeping what was being typed. */
  const draw = async (force = false) => {
    try {
      const decidedQuery = new URLSearchParams({ limit: String(LIST_LIMIT) });
      if (filter.value) decidedQuery.set('state', filter.value);
      const [pending, decided] = await Promise.all([
        api(`/admin/approvals?state=pending&limit=${LIST_LIMIT}`),
        api(`/admin/approvals?${decidedQuery}`),
      ]);
      const seen = JSON.stringify([pending.body, decided.body, filter.value]);
      if (seen === last && !force) return;
      last = seen;
      const waiting = pending.body.items;
      const done = decided.body.items.filter((a) => a.state !== 'pending');
      for (const id of typed.keys()) if (!waiting.some((a) => a.id === id)) typed.delete(id);
      const focused = document.activeElement?.classList.contains('approval-note') ? document.activeElement : null;
      put(pendingTitle, `Waiting for a decision (${waiting.length})`);
      put(pendingList, pendingTable(waiting));
      put(decidedList, decidedTable(done));
      markRows(pendingList, waiting);
      markRows(decidedList, done);
      // A new request arriving while the operator types must not take the field away from under the cursor.
      if (focused) refocus(pendingList, focused);
    } catch (err) {
      last = null;
      put(pendingList, errorBox(err));
      clear(decidedList);
    }
  };

  filter.addEventListener('change', () => void draw(true));
  add(
    ctx.main,
    h('h1', {}, 'Approvals'),
    h(
      'p',
      { class: 'muted' },
      'Calls of the tools an agent’s ',
      h('code', {}, 'tools.requiresApproval'),
      ' names wait here for an operator; an A2A task shows INPUT_REQUIRED meanwhile. No decision before it expires (',
      h('code', {}, 'tools.approvalTimeoutMs'),
      ') counts as a denial. A denial’s note is given to the model. Refreshes every 5 s.',
    ),
    operator
      ? null
      : h('p', { class: 'muted', id: 'approvals-role' }, `Signed in as ${ctx.principal.role}: deciding needs the operator role.`),
    h(
      'div',
      { class: 'toolbar' },
      actionButton('Refresh', () => draw(true)),
    ),
    note,
    pendingTitle,
    pendingList,
    h('h2', {}, 'Decided'),
    h('div', { class: 'toolbar filters' }, filter, h('span', { class: 'small muted' }, `among the latest ${LIST_LIMIT} requests`)),
    decidedList,
  );
  await draw();
  ctx.every(5000, () => void draw());
  ctx.every(1000, () => {
    for (const el of pendingList.querySelectorAll('time.countdown')) el.textContent = remaining(el.getAttribute('datetime'));
  });
}

/** Each row carries its approval's id and tool, for finding it again (and for tests). */
function markRows(list, items) {
  for (const [i, row] of list.querySelectorAll('tbody tr').entries()) {
    row.dataset.approval = items[i].id;
    row.dataset.tool = items[i].tool;
  }
}

/** Puts the cursor back into the note field of the same approval, where it was. */
function refocus(list, was) {
  const input = [...list.querySelectorAll('input.approval-note')].find((el) => el.dataset.approval === was.dataset.approval);
  if (!input) return;
  input.focus();
  input.setSelectionRange(was.selectionStart, was.selectionEnd);
}
