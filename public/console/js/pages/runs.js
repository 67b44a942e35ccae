// Run trees: a run and every run it started (spawns, sessions_send rounds, steers), live, with the operator's kill of
// a subtree and steer of a session. Reading a tree is the operator's too (GET /admin/runs/:id/tree), as a run's own
// record is: a viewer is told so and gets no controls.
import { api, seg } from '../api.js';
import { actionButton, add, clear, errorBox, h, put } from '../dom.js';

const OVER = new Set(['completed', 'failed', 'aborted']);
/** While anything in the tree is queued or running, it is read again this often. */
const LIVE_REFRESH_MS = 2000;

export async function runsPage(ctx) {
  add(ctx.main, h('h1', {}, 'Runs'));
  if (!ctx.can('operator')) {
    add(
      ctx.main,
      h('p', { class: 'empty', id: 'runs-denied' }, 'Run trees are for the operator role (GET /admin/runs/:id/tree, like a run itself).'),
    );
    return;
  }
  const input = h('input', { id: 'runs-id', placeholder: 'run id', size: 40, value: ctx.params[0] ?? '' });
  const open = () => {
    const id = input.value.trim();
    if (id) location.hash = `#/runs/${seg(id)}`;
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') open();
  });
  add(
    ctx.main,
    h(
      'div',
      { class: 'toolbar' },
      input,
      h('button', { type: 'button', id: 'runs-open', onclick: open }, 'Show tree'),
      h('span', { class: 'muted small' }, 'A run id from a task, a session line, or a sessions_spawn/send result.'),
    ),
  );
  if (ctx.params.length) await treeView(ctx, ctx.params[0]);
}

/**
 * The tree of one run. Each node is drawn once and its facts updated in place on every refresh, so a steer message
 * being typed in a node's form survives the refreshes of a live tree.
 */
async function treeView(ctx, runId) {
  const note = h('div', { id: 'runs-note' });
  const root = h('ul', { class: 'run-tree', id: 'run-tree' });
  const live = h('p', { class: 'muted small', id: 'runs-live' });
  const nodes = new Map();
  let timer = null;

  const draw = async () => {
    let tree;
    try {
      tree = (await api(`/admin/runs/${seg(runId)}/tree`)).body;
    } catch (err) {
      put(root, h('li', {}, errorBox(err)));
      nodes.clear();
      return;
    }
    const anyLive = place(root, [tree]);
    live.textContent = anyLive ? `Live: read again every ${LIVE_REFRESH_MS / 1000} s.` : 'Every run of this tree is over.';
    if (anyLive && !timer) timer = setInterval(() => void draw(), LIVE_REFRESH_MS);
    if (!anyLive && timer) {
      clearInterval(timer);
      timer = null;
    }
  };

  /** Puts these runs, in order, as the items of `list` (reusing their elements); true when one of them, or below, is not over. */
  const place = (list, runs) => {
    let anyLive = false;
    const items = runs.map((run) => {
      const node = nodes.get(run.runId) ?? nodeFor(run);
      nodes.set(run.runId, node);
      const below = place(node.children, run.children);
      node.update(run, below);
      anyLive ||= below || !OVER.has(run.status);
      return node.li;
    });
    const current = [...list.children];
    if (items.length !== current.length || items.some((li, i) => li !== current[i])) list.replaceChildren(...items);
    return anyLive;
  };

  /** The element of one run: its facts, its controls, and the list of the runs below it. */
  const nodeFor = (first) => {
    const facts = h('div', { class: 'run-facts' });
    const error = h('div', { class: 'error small' });
    const children = h('ul', { class: 'run-tree' });
    // A kill asks first, on the page: the question stays through the refreshes until it is answered.
    let killable = true;
    const ask = h('span', { class: 'run-kill-ask', hidden: true });
    const kill = h('button', { type: 'button', class: 'danger small run-kill' }, 'Kill subtree');
    const keep = () => {
      ask.hidden = true;
      kill.hidden = !killable;
    };
    kill.addEventListener('click', () => {
      kill.hidden = true;
      put(
        ask,
        `Abort run ${first.runId} and every run below it that is not over? `,
        actionButton(
          'Yes, kill',
          async () => {
            clear(note);
            try {
              const { body } = await api(`/admin/runs/${seg(first.runId)}/kill`, { method: 'POST' });
              add(note, h('p', { class: 'ok', id: 'runs-killed' }, `aborted ${body.aborted.length} run(s): ${body.aborted.join(', ')}`));
            } catch (err) {
              add(note, errorBox(err));
            }
            ask.hidden = true;
            await draw();
          },
          { class: 'danger small run-kill-confirm' },
        ),
        ' ',
        h('button', { type: 'button', class: 'small', onclick: keep }, 'Keep'),
      );
      ask.hidden = false;
    });
    const message = h('input', { class: 'run-steer-message', placeholder: 'message to the session', size: 40 });
    const steer = actionButton(
      'Steer',
      async () => {
        const text = message.value.trim();
        if (!text) return;
        clear(note);
        try {
          const { body } = await api(`/admin/sessions/${seg(first.sessionKey)}/steer`, { method: 'POST', body: { message: text } });
          message.value = '';
          add(
            note,
            h('p', { class: 'ok', id: 'runs-steered' }, `steered ${body.sessionKey}: run ${body.runId}, ${body.queuedBehind} run(s) ahead`),
          );
        } catch (err) {
          add(note, errorBox(err));
        }
        await draw();
      },
      { class: 'small run-steer' },
    );
    const li = h(
      'li',
      { class: 'run-node', dataset: { runId: first.runId } },
      facts,
      error,
      h(
        'div',
        { class: 'run-actions' },
        kill,
        ask,
        h('details', { class: 'run-steer-form' }, h('summary', {}, 'Steer session'), message, ' ', steer),
      ),
      children,
    );
    return {
      li,
      children,
      update(run, below) {
        put(
          facts,
          h('span', { class: `state run-${run.status}` }, run.status),
          ' ',
          h('code', {}, run.agentId),
          ' ',
          h('a', { href: `#/sessions/${seg(run.sessionKey)}`, class: 'small' }, run.sessionKey),
          ' ',
          h('span', { class: 'muted small' }, run.model ?? 'no model yet'),
          ' · ',
          h('span', { class: 'run-tokens' }, run.usage ? `${run.usage.inputTokens} in / ${run.usage.outputTokens} out` : 'no tokens'),
          run.cost !== undefined ? h('span', { class: 'run-cost' }, ` · cost ${Number(run.cost.toPrecision(4))}`) : null,
          ' · ',
          h('span', { class: 'run-elapsed' }, elapsed(run.elapsedMs)),
          ' ',
          h('code', { class: 'small muted' }, run.runId),
        );
        error.textContent = run.error ?? '';
        // Nothing left to stop: the kill would be a 400, so it is not offered.
        killable = !OVER.has(run.status) || below;
        kill.hidden = !killable || !ask.hidden;
      },
    };
  };

  ctx.onLeave(() => timer && clearInterval(timer));
  add(ctx.main, h('h2', {}, 'Tree of run ', h('code', {}, runId)), note, live, root);
  await draw();
}

function elapsed(ms) {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
