import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonOrFormParams, mediaTypeOf, readBody } from '../fake-http';
import { type FakeSlackApp, SlackApiError } from './fake-slack-app';
import type { FakeSlackFiles } from './fake-slack-files';
import type { PostedMessage, RecordedCall, SlackUser } from './slack-types';

/** What the Web API reads of the fake workspace, and what it asks of the rest of the fake. */
export interface SlackWebApiContext {
  teamId: string;
  apps: readonly FakeSlackApp[];
  users: ReadonlyMap<string, SlackUser>;
  files: FakeSlackFiles;
  /** A Socket Mode URL for the app (`apps.connections.open`). */
  openConnection(app: FakeSlackApp): string;
  /** The bot's own post, sent back to it as an event (as Slack does for `message.*` subscribers). */
  echo(app: FakeSlackApp, message: PostedMessage): void;
}

/**
 * The Web API (https://api.slack.com/web): `POST /api/<method>` with a form or JSON body and the token in
 * `Authorization: Bearer` (or a `token` parameter); `{ ok: true, … }`, or `{ ok: false, error }` with HTTP 200, or a
 * scripted 429 with `Retry-After`. Also serves the files' URLs.
 */
export class SlackWebApi {
  constructor(private readonly ctx: SlackWebApiContext) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (
      await this.ctx.files.serve(
        req,
        res,
        url.pathname,
        this.ctx.apps.map((a) => a.botToken),
      )
    )
      return;
    const match = /^\/api\/([A-Za-z.]+)$/.exec(url.pathname);
    if (!match || req.method !== 'POST') return answer(res, 404, { ok: false, error: 'unknown_method' });
    const method = match[1];
    let params: Record<string, unknown>;
    try {
      params = { ...Object.fromEntries(url.searchParams), ...(await readParams(req)) };
    } catch {
      return answer(res, 200, { ok: false, error: 'invalid_form_data' });
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ?? (typeof params.token === 'string' ? params.token : undefined);
    const { token: _token, ...shown } = params;
    const app = token ? this.ctx.apps.find((a) => a.botToken === token || a.appToken === token) : undefined;
    const call: RecordedCall = { method, params: shown, ...(token ? { token } : {}), status: 200 };
    try {
      if (!token) throw new SlackApiError('not_authed');
      if (!app) throw new SlackApiError('invalid_auth');
      app.rateLimit(method);
      const result = this.call(app, method, token === app.appToken, params);
      app.record(call);
      answer(res, 200, { ok: true, ...result });
    } catch (error) {
      if (!(error instanceof SlackApiError)) throw error;
      call.status = error.status;
      call.error = error.error;
      app?.record(call);
      answer(
        res,
        error.status,
        { ok: false, error: error.error },
        error.retryAfter !== undefined ? { 'retry-after': String(error.retryAfter) } : {},
      );
    }
  }

  private call(app: FakeSlackApp, method: string, appLevel: boolean, params: Record<string, unknown>): Record<string, unknown> {
    if (method === 'apps.connections.open') {
      if (!appLevel) throw new SlackApiError('not_allowed_token_type');
      return { url: this.ctx.openConnection(app) };
    }
    if (appLevel) throw new SlackApiError('not_allowed_token_type');
    switch (method) {
      case 'auth.test':
        return {
          url: 'https://fake-workspace.slack.com/',
          team: 'Fake Workspace',
          user: app.name,
          team_id: this.ctx.teamId,
          user_id: app.botUserId,
          bot_id: app.botId,
          is_enterprise_install: false,
        };
      case 'chat.postMessage': {
        // Posts, and sends the bot's own message back as an event.
        const result = app.postMessage(params);
        this.ctx.echo(app, app.posted.at(-1)!);
        return result;
      }
      case 'chat.update':
        return app.update(params);
      case 'files.getUploadURLExternal':
        return this.ctx.files.getUploadURLExternal(params);
      case 'files.completeUploadExternal': {
        // A conversation's id: a user id does not name a DM here (conversations.open gives the DM's id).
        const channel = typeof params.channel_id === 'string' ? params.channel_id : undefined;
        if (channel !== undefined && !app.conversations.has(channel)) throw new SlackApiError('channel_not_found');
        return this.ctx.files.completeUploadExternal(params, channel);
      }
      case 'conversations.open': {
        const user = typeof params.users === 'string' ? params.users : '';
        if (!this.ctx.users.has(user) || user.includes(',')) throw new SlackApiError('user_not_found');
        return { channel: { id: app.imWith(user).id } };
      }
      case 'conversations.info':
        return { channel: app.conversationInfo(params) };
      case 'users.info': {
        const user = this.ctx.users.get(String(params.user));
        if (!user) throw new SlackApiError('user_not_found');
        return { user: { id: user.id, team_id: user.teamId, name: user.name, real_name: user.realName, is_bot: false } };
      }
      default:
        throw new SlackApiError('unknown_method');
    }
  }
}

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The body's parameters: JSON, or a URL-encoded form (whose object values are JSON strings, as WebClient sends them). */
async function readParams(req: IncomingMessage): Promise<Record<string, unknown>> {
  const body = (await readBody(req)).toString('utf8');
  if (!body) return {};
  return jsonOrFormParams(body, mediaTypeOf(req), (what) => new Error(what));
}
