import type { RuntimeSnapshot } from './modules/config';

/** What the banner says, as fields of its log line (docs/operations.md#the-lines). */
export interface StartupBanner {
  event: 'gateway.started';
  url: string;
  adminApi: string;
  docs: string;
  /** The web console (docs/console.md). */
  console: string;
  /** Only while the A2A channel is on. */
  agentCard?: string;
  a2a?: string;
  configPath: string;
  stateDir: string;
  revision: string;
  agents: number;
  logFormat: string;
}

/** The banner of a gateway that listens on `url`: where everything is, and what it runs on. */
export function startupBanner(
  url: string,
  snapshot: RuntimeSnapshot,
  where: { configPath: string; stateDir: string; logFormat: string },
): { fields: StartupBanner; message: string } {
  const a2aOn = snapshot.config.channels.a2a.enabled;
  const fields: StartupBanner = {
    event: 'gateway.started',
    url,
    adminApi: `${url}/admin`,
    docs: `${url}/docs`,
    console: `${url}/console/`,
    ...(a2aOn ? { agentCard: `${url}/.well-known/agent-card.json`, a2a: `${url}/a2a/v1` } : {}),
    configPath: where.configPath,
    stateDir: where.stateDir,
    revision: snapshot.revision,
    agents: snapshot.config.agents.length,
    logFormat: where.logFormat,
  };
  const parts = [
    `admin API ${fields.adminApi}`,
    `docs ${fields.docs}`,
    `console ${fields.console}`,
    fields.agentCard ? `agent card ${fields.agentCard}` : 'A2A channel off',
  ];
  const message =
    `clawgate listening on ${url} — ${parts.join(', ')}; config ${where.configPath} (revision ${snapshot.revision}, ` +
    `${fields.agents} agent${fields.agents === 1 ? '' : 's'}); state ${where.stateDir}`;
  return { fields, message };
}
