// MCP: the servers of mcp.servers and those plugins registered (marked with the plugin) with their state, transport
// and tools, and one server's last error, stderr lines, tools with the names the model and tools.allow use, and its
// settings (env and headers redacted by the API).
import { api, seg } from '../api.js';
import { actionButton, add, codeBlock, errorBox, h, put, table, time } from '../dom.js';

const stateText = (state) => h('span', { class: `state mcp-${state}` }, state);
// A server a plugin registered (api.registerMcpServer): its plugin, linked to the plugin's page.
const pluginNote = (plugin) =>
  h('span', { class: 'small muted mcp-plugin' }, ' plugin ', h('a', { href: `#/plugins/${seg(plugin)}` }, plugin));

export async function mcpPage(ctx) {
  if (ctx.params.length) return serverDetail(ctx, ctx.params[0]);
  const list = h('div', { id: 'mcp-list' });
  let last = null;
  const draw = async () => {
    try {
      const { body } = await api('/admin/mcp');
      // Redrawn only when something changed (the page polls), so what the operator reads does not flicker.
      const seen = JSON.stringify(body);
      if (seen === last) return;
      last = seen;
      put(
        list,
        table(
          [
            ['Server', (s) => [h('a', { href: `#/mcp/${seg(s.name)}` }, s.name), s.plugin ? pluginNote(s.plugin) : null]],
            ['State', (s) => [stateText(s.state), s.enabled ? null : h('span', { class: 'small muted' }, ' (disabled)')]],
            ['Transport', (s) => s.transport],
            ['Startup', (s) => s.startup],
            ['Tools', (s) => (s.tools.length ? s.tools.map((t) => h('code', { class: 'block small' }, t.policyName)) : '—')],
            [
              'Agents',
              (s) => (s.agents?.length ? s.agents.map((a) => h('code', { class: 'block' }, a)) : h('span', { class: 'muted' }, 'none')),
            ],
            ['Restarts', (s) => s.restarts],
            ['In flight', (s) => s.callsInFlight],
            ['Last error', (s) => (s.lastError ? h('div', { class: 'small error' }, s.lastError, ' ', time(s.lastErrorAt)) : '')],
          ],
          body.servers,
          { empty: 'No MCP server is configured (mcp.servers).', rowClass: (s) => `mcp-row mcp-${s.state}` },
        ),
      );
      for (const [i, row] of list.querySelectorAll('tbody tr').entries()) row.dataset.server = body.servers[i].name;
    } catch (err) {
      last = null;
      put(list, errorBox(err));
    }
  };
  add(
    ctx.main,
    h('h1', {}, 'MCP servers'),
    h(
      'p',
      { class: 'muted' },
      'Agents: those whose tools.allow grants some tool of the server (',
      h('code', {}, 'mcp:<server>:<tool>'),
      ', globs with *); a tools.deny entry may still take single tools away. A lazy server starts on the first run of one of them. Refreshes every 5 s.',
    ),
    h(
      'div',
      { class: 'toolbar' },
      actionButton('Refresh', () => draw()),
    ),
    list,
  );
  await draw();
  ctx.every(5000, () => void draw());
}

async function serverDetail(ctx, name) {
  const body = h('div', { id: 'mcp-server' });
  const draw = async () => {
    try {
      const { body: s } = await api(`/admin/mcp/${seg(name)}`);
      put(
        body,
        h(
          'dl',
          { class: 'facts' },
          ...[
            ['State', stateText(s.state)],
            ['Registered by', s.plugin ? pluginNote(s.plugin) : h('code', {}, `mcp.servers.${s.name}`)],
            ['Enabled', s.enabled ? 'yes' : 'no'],
            ['Transport', s.transport],
            ['Startup', s.startup],
            ['Process', s.pid ?? '—'],
            ['Ready since', time(s.startedAt)],
            ['Restarts', s.restarts],
            [
              'Agents',
              s.agents?.length
                ? s.agents.map((a) => h('code', { class: 'agent' }, a, ' '))
                : 'none: no agent’s tools.allow grants its tools',
            ],
            ['Calls in flight', s.callsInFlight],
            ['Last error', s.lastError ? h('span', { class: 'error', id: 'mcp-last-error' }, s.lastError, ' ', time(s.lastErrorAt)) : '—'],
          ].flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
        ),
        h('h2', {}, `Tools (${s.tools.length})`),
        table(
          [
            ['Tool', (t) => h('code', {}, t.name)],
            ['Policy name (tools.allow)', (t) => h('code', {}, t.policyName)],
            ['Function name (the model)', (t) => h('code', { class: 'small' }, t.functionName)],
            ['Description', (t) => h('span', { class: 'small' }, t.description ?? '')],
          ],
          s.tools,
          { empty: s.state === 'ready' ? 'The server offers no tool (after toolFilter).' : 'Not listed: the server is not ready.' },
        ),
        h('h2', {}, 'Last stderr lines'),
        s.stderr.length ? codeBlock(s.stderr.join('\n')) : h('p', { class: 'empty' }, 'Nothing written to stderr.'),
        h('h2', {}, 'Settings'),
        h(
          'p',
          { class: 'muted' },
          s.plugin ? `As plugin ${s.plugin} registered it` : h('code', {}, `mcp.servers.${s.name}`),
          ', defaults filled, env and headers values [redacted]',
        ),
        codeBlock(JSON.stringify(s.config, null, 2)),
      );
    } catch (err) {
      put(body, errorBox(err));
    }
  };
  add(
    ctx.main,
    h('p', {}, h('a', { href: '#/mcp' }, '← all MCP servers')),
    h('h1', {}, 'MCP server ', h('code', {}, name)),
    h(
      'div',
      { class: 'toolbar' },
      actionButton('Refresh', () => draw()),
    ),
    body,
  );
  await draw();
}
