import { randomUUID } from 'node:crypto';
import { HttpException } from '@nestjs/common';
import type {
  ChannelContext,
  ChannelInboundMessage,
  ChannelReplyDelta,
  ChannelReplyEvent,
  PluginHttpRequest,
  PluginHttpResponse,
  PluginHttpRoute,
  PluginServerSentEvent,
} from '../../plugin-sdk';
import { AppError, ErrorCode } from '../../plugin-sdk';
import { EventQueue } from '../../common/event-queue';
import { bearerToken } from '../../common/http/bearer-token';
import { StrictValidationPipe } from '../../common/http/strict-validation-pipe';
import { authenticateAccount } from './account-auth';
import { HttpInboundMessageDto, type HttpRunAcceptedDto, type HttpRunResultDto } from './dto/http-message.dto';
import type { HttpChannel } from './http-channel';
import type { HttpSection } from './http-section';

/** The inbound route of the http channel: the address it always had, kept as a bundled plugin's absolute path. */
export const HTTP_CHANNEL_MESSAGES_PATH = '/channels/http/messages';
export const HTTP_CHANNEL_CHALLENGE = 'Bearer realm="clawgate http channel"';
/** Longest `wait: true` wait (docs/channels.md#sending-a-message); same order as the A2A reply timeout [120 s]. */
export const HTTP_REPLY_WAIT_MS = 120_000;

export type InboundOutcome = { status: 200; body: HttpRunResultDto } | { status: 202; body: HttpRunAcceptedDto };

/**
 * The checks of the inbound http channel, in order: 404 while `channels.http.enabled` is not true, then the bearer
 * token must equal a usable account's token (that account is the caller's identity). Throws the AppError to answer
 * with (a 401 gets the route's challenge). The section is read per request, so rotated tokens apply at once.
 */
export function authenticateHttpChannel(
  channel: HttpChannel,
  headers: PluginHttpRequest['headers'],
): { context: ChannelContext; section: HttpSection; accountId: string } {
  const running = channel.current();
  if (!running) throw new AppError(ErrorCode.NotFound, 'the http channel is not enabled');
  const account = authenticateAccount(running.section.accounts, bearerToken(headers.authorization, 'rest-of-value'));
  // One answer for every failure (no header, wrong scheme, unknown or unusable token).
  if (!account) throw new AppError(ErrorCode.Unauthenticated, 'a valid bearer token is required');
  return { ...running, accountId: account.id };
}

/**
 * `POST /channels/http/messages` (docs/channels.md#sending-a-message): the channel must be on (404) and the token an
 * account's (401) before a byte of the body is read (`precheck`), so an anonymous client can neither make the gateway
 * parse a body nor tell a malformed body from a good one. Then the body is checked with the same rules and messages
 * as the gateway's own routes (unknown fields refused with did-you-mean), and the message goes through the gateway's
 * inbound pipeline as the account's: the reply as JSON (waited for up to 120 s), 202 at once with `wait: false`, or the
 * reply as Server-Sent Events with `stream: true`. The OpenAPI description of the route is http-route.docs.ts.
 */
export function httpMessagesRoute(channel: HttpChannel, waitMs = HTTP_REPLY_WAIT_MS): PluginHttpRoute {
  return {
    method: 'POST',
    path: HTTP_CHANNEL_MESSAGES_PATH,
    absolute: true,
    auth: 'public',
    challenge: HTTP_CHANNEL_CHALLENGE,
    precheck: (request) => void authenticateHttpChannel(channel, request.headers),
    handle: async (request) => {
      const { context, accountId } = authenticateHttpChannel(channel, request.headers);
      const message = await validBody(request.body);
      if (message.stream === true) return streamReply(context, accountId, message);
      const outcome = await receive(context, accountId, message, waitMs);
      return { status: outcome.status, body: outcome.body };
    },
  };
}

/** The body as the DTO, or the 400 the gateway's ValidationPipe gives (each message an item of `errors`). */
async function validBody(body: unknown): Promise<HttpInboundMessageDto> {
  const value = body !== null && typeof body === 'object' ? body : {};
  try {
    return (await new StrictValidationPipe().transform(value, { type: 'body', metatype: HttpInboundMessageDto })) as HttpInboundMessageDto;
  } catch (err) {
    if (!(err instanceof HttpException)) throw err;
    const response = err.getResponse();
    const messages = typeof response === 'object' && response && 'message' in response ? response.message : err.message;
    const list = Array.isArray(messages) ? messages.map(String) : [String(messages)];
    throw new AppError(
      ErrorCode.BadRequest,
      list.join('; '),
      list.map((m) => ({ message: m })),
    );
  }
}

/** The message as the gateway's inbound pipeline takes it: the account is the caller, the peer the conversation. */
function inboundOf(
  accountId: string,
  message: HttpInboundMessageDto,
  onReplyDelta?: (delta: ChannelReplyDelta) => void,
): ChannelInboundMessage {
  const kind = message.peer.kind === 'direct' ? 'dm' : message.peer.kind;
  return {
    accountId,
    peer: { kind, id: message.peer.id },
    sender: { id: message.peer.id },
    ...(message.threadId ? { threadId: message.threadId } : {}),
    messageId: randomUUID(),
    text: message.text,
    mentionsBot: true,
    ...(onReplyDelta ? { onReplyDelta } : {}),
  };
}

async function start(
  context: ChannelContext,
  accountId: string,
  message: HttpInboundMessageDto,
  onReplyDelta?: (delta: ChannelReplyDelta) => void,
) {
  const outcome = await context.inbound(inboundOf(accountId, message, onReplyDelta));
  // An `accounts` channel is never paired nor ignored by policy; anything else would be a gateway fault.
  if (outcome.kind !== 'reply') throw new Error(`the http channel's message was not run (${outcome.kind})`);
  return outcome;
}

/** Runs the message and (by default) waits for the reply: 200 with the result, or 202 when not waiting or not done in time. */
export async function receive(
  context: ChannelContext,
  accountId: string,
  message: HttpInboundMessageDto,
  waitMs: number,
): Promise<InboundOutcome> {
  const run = await start(context, accountId, message);
  const { runId, sessionKey, agentId } = run;
  if (message.wait === false) return { status: 202, body: { runId, sessionKey } };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
  try {
    const end = await Promise.race([lastEvent(run.events), timeout]);
    // Not cancelled: the run goes on and its reply still lands in the session.
    if (!end) return { status: 202, body: { runId, sessionKey, status: 'running' } };
    return { status: 200, body: resultOf(end, runId, sessionKey, agentId) };
  } finally {
    clearTimeout(timer);
  }
}

/** The reply as Server-Sent Events: `run`, each `delta` as it is written, `done`; then the response ends. */
async function streamReply(context: ChannelContext, accountId: string, message: HttpInboundMessageDto): Promise<PluginHttpResponse> {
  const deltas = new EventQueue<PluginServerSentEvent>();
  // Started before the answer begins, so a routing failure still answers as a problem; deltas queue until read.
  const run = await start(context, accountId, message, (delta) =>
    deltas.push({ event: 'delta', data: { round: delta.round, text: delta.text } }),
  );
  const { runId, sessionKey, agentId } = run;
  void lastEvent(run.events).then((end) => {
    deltas.push({ event: 'done', data: resultOf(end, runId, sessionKey, agentId) });
    deltas.close();
  });
  return { status: 200, events: deltas.after({ event: 'run', data: { runId, sessionKey, agentId } }) };
}

/** The `final` or `failed` event that ends a reply. */
async function lastEvent(events: AsyncIterable<ChannelReplyEvent>): Promise<Extract<ChannelReplyEvent, { type: 'final' | 'failed' }>> {
  for await (const event of events) if (event.type !== 'progress') return event;
  return { type: 'failed', message: 'the reply ended without an answer', status: 'failed' };
}

/**
 * A failed run is still a processed request: status "failed" (or "aborted") and the reason, like an A2A task that ends
 * FAILED. A 5xx would tell the integrator to retry a message the agent has already seen.
 */
function resultOf(
  end: Extract<ChannelReplyEvent, { type: 'final' | 'failed' }>,
  runId: string,
  sessionKey: string,
  agentId: string,
): HttpRunResultDto {
  if (end.type === 'final') return { runId, sessionKey, agentId, status: 'completed', reply: end.text };
  return { runId, sessionKey, agentId, status: end.status, error: end.message };
}
