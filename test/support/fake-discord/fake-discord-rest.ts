import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../fake-http';
import { withinLimitHeaders, rateLimited } from './discord-rate-limits';
import type { DChannel, DMessage, DUser } from './discord-types';
import { FakeDiscordFiles, type FileUpload } from './fake-discord-files';
import type { FakeDiscordMessages } from './fake-discord-messages';
import type { FakeDiscordBot, FakeDiscordWorld } from './fake-discord-world';

/** A Discord error body: `{ message, code }` (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json). */
class DiscordHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

const DISCORD_TEXT_LIMIT = 2000;

/** What the REST API reads and changes of the fake Discord. */
export interface DiscordRestContext {
  world: FakeDiscordWorld;
  bots: ReadonlyMap<string, FakeDiscordBot>;
  files: FakeDiscordFiles;
  messages: FakeDiscordMessages;
  gatewayUrl(): string;
}

/**
 * The REST API v10 under `/api/v10` (and the CDN's attachment paths): a bot's token in `Authorization: Bot <token>`,
 * JSON or multipart bodies, `{ message, code }` errors, rate-limit headers on every answer and the scripted 429s.
 */
export class FakeDiscordRest {
  constructor(private readonly ctx: DiscordRestContext) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const method = (req.method ?? 'GET').toUpperCase();
    if (this.ctx.files.serve(url.pathname, url.searchParams, res)) return;
    const match = /^\/api\/v10(\/.*)$/.exec(url.pathname);
    const bytes = await readBody(req);
    const raw = bytes.toString('utf8');
    const multipart = /^multipart\/form-data/i.test(req.headers['content-type'] ?? '');
    if (!match) return reply(res, 404, { message: '404: Not Found', code: 0 });
    const route = match[1];
    const bot = this.ctx.bots.get((req.headers.authorization ?? '').replace(/^Bot /, ''));
    if (!bot || !(req.headers.authorization ?? '').startsWith('Bot ')) return reply(res, 401, { message: '401: Unauthorized', code: 0 });
    let body: unknown;
    let uploads: FileUpload[] = [];
    try {
      if (multipart) ({ body, files: uploads } = FakeDiscordFiles.readUpload(bytes, req.headers['content-type'] ?? ''));
      else body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return reply(res, 400, { message: '400: Bad Request', code: 0 });
    }
    const retryAfter = bot.takeLimit(method, route);
    if (retryAfter !== undefined) {
      bot.calls.push({ method, route, body, status: 429 });
      const limited = rateLimited(route, retryAfter);
      return reply(res, 429, limited.body, limited.headers);
    }
    try {
      const answer = this.route(bot, method, route, body, uploads);
      bot.calls.push({ method, route, body, status: answer === undefined ? 204 : 200 });
      return reply(res, answer === undefined ? 204 : 200, answer, withinLimitHeaders(route));
    } catch (error) {
      if (!(error instanceof DiscordHttpError)) throw error;
      bot.calls.push({ method, route, body, status: error.status });
      return reply(res, error.status, error.body);
    }
  }

  private route(bot: FakeDiscordBot, method: string, route: string, body: unknown, uploads: FileUpload[]): unknown {
    const key = `${method} ${route.replace(/\/\d+/g, '/:id')}`;
    const ids = [...route.matchAll(/\/(\d+)/g)].map((m) => m[1]);
    switch (key) {
      case 'GET /gateway/bot':
        return {
          url: this.ctx.gatewayUrl(),
          shards: 1,
          session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
        };
      case 'GET /users/@me':
        return bot.user;
      case 'POST /users/@me/channels': {
        const recipient = (body as { recipient_id?: string } | undefined)?.recipient_id;
        const user = recipient ? this.knownUser(recipient) : undefined;
        if (!user) throw invalidForm('recipient_id', 'Unknown user');
        return this.ctx.world.dmChannel(bot.user, user);
      }
      case 'GET /channels/:id':
        return this.channel(bot, ids[0]);
      case 'POST /channels/:id/typing':
        this.channel(bot, ids[0]);
        return undefined;
      case 'POST /channels/:id/messages':
        return this.createMessage(bot, this.channel(bot, ids[0]), body as Record<string, unknown>, uploads);
      case 'PATCH /channels/:id/messages/:id':
        return this.editMessage(bot, this.channel(bot, ids[0]), ids[1], body as Record<string, unknown>);
      default:
        throw new DiscordHttpError(404, { message: '404: Not Found', code: 0 });
    }
  }

  private channel(bot: FakeDiscordBot, id: string): DChannel {
    const channel = this.ctx.world.channels.get(id);
    if (!channel) throw new DiscordHttpError(404, { message: 'Unknown Channel', code: 10003 });
    if (!this.ctx.world.visible(bot, channel)) throw new DiscordHttpError(403, { message: 'Missing Access', code: 50001 });
    return channel;
  }

  private createMessage(bot: FakeDiscordBot, channel: DChannel, body: Record<string, unknown>, uploads: FileUpload[]): DMessage {
    const content = typeof body?.content === 'string' ? body.content : '';
    if (uploads.length > 10) throw invalidForm('files', 'Must be 10 or fewer in length.', 'BASE_TYPE_MAX_LENGTH');
    if (!content.trim() && !uploads.length) throw new DiscordHttpError(400, { message: 'Cannot send an empty message', code: 50006 });
    if (content.length > DISCORD_TEXT_LIMIT)
      throw invalidForm('content', `Must be ${DISCORD_TEXT_LIMIT} or fewer in length.`, 'BASE_TYPE_MAX_LENGTH');
    const reference = body.message_reference as { message_id?: string; fail_if_not_exists?: boolean } | undefined;
    if (reference?.message_id && !this.ctx.world.message(channel.id, reference.message_id) && reference.fail_if_not_exists !== false) {
      throw invalidForm('message_reference', 'Unknown message', 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE');
    }
    return this.ctx.messages.post(channel, bot.user, content, reference?.message_id, uploads);
  }

  private editMessage(bot: FakeDiscordBot, channel: DChannel, messageId: string, body: Record<string, unknown>): DMessage {
    const message = this.ctx.world.message(channel.id, messageId);
    if (!message) throw new DiscordHttpError(404, { message: 'Unknown Message', code: 10008 });
    if (message.author.id !== bot.user.id)
      throw new DiscordHttpError(403, { message: 'Cannot edit a message authored by another user', code: 50005 });
    if (typeof body?.content === 'string') {
      if (!body.content.trim()) throw new DiscordHttpError(400, { message: 'Cannot send an empty message', code: 50006 });
      if (body.content.length > DISCORD_TEXT_LIMIT)
        throw invalidForm('content', `Must be ${DISCORD_TEXT_LIMIT} or fewer in length.`, 'BASE_TYPE_MAX_LENGTH');
      message.content = body.content;
      message.mentions = this.ctx.messages.mentionsIn(body.content);
    }
    message.edited_timestamp = new Date().toISOString();
    this.ctx.world.edited(message);
    this.ctx.messages.announce(channel, 'MESSAGE_UPDATE', message);
    return message;
  }

  private knownUser(id: string): DUser | undefined {
    for (const list of this.ctx.world.messages.values()) {
      const found = list.find((m) => m.author.id === id)?.author;
      if (found) return found;
    }
    for (const channel of this.ctx.world.channels.values()) {
      const found = channel.recipients?.find((r) => r.id === id);
      if (found) return found;
    }
    return undefined;
  }
}

/** Discord's 50035 "Invalid Form Body" with the field's error. */
function invalidForm(field: string, message: string, code = 'BASE_TYPE_INVALID'): DiscordHttpError {
  return new DiscordHttpError(400, { message: 'Invalid Form Body', code: 50035, errors: { [field]: { _errors: [{ code, message }] } } });
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}
