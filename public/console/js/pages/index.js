// Route name → page. Each page is `async (ctx) => void` and draws itself into ctx.main.
import { agentsPage } from './agents.js';
import { approvalsPage } from './approvals.js';
import { auditPage } from './audit.js';
import { channelsPage } from './channels.js';
import { configPage } from './config-editor.js';
import { historyPage } from './history.js';
import { mcpPage } from './mcp.js';
import { pairingPage } from './pairing.js';
import { pluginsPage } from './plugins.js';
import { runsPage } from './runs.js';
import { sessionsPage } from './sessions.js';
import { statusPage } from './status.js';
import { tasksPage } from './tasks.js';
import { topologyPage } from './topology.js';

export const PAGES = {
  status: statusPage,
  topology: topologyPage,
  agents: agentsPage,
  sessions: sessionsPage,
  tasks: tasksPage,
  runs: runsPage,
  approvals: approvalsPage,
  plugins: pluginsPage,
  channels: channelsPage,
  pairing: pairingPage,
  mcp: mcpPage,
  config: configPage,
  history: historyPage,
  audit: auditPage,
};
