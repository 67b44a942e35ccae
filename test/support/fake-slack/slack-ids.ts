let nextId = 1;

/** A Slack-shaped id (`T…` team, `U…` user, `C…`/`G…`/`D…` conversation, `Ev…` event), unique in the process. */
export const slackId = (prefix: string): string => `${prefix}0${String(nextId++).padStart(8, '0')}`;
