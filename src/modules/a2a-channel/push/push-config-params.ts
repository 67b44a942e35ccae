import { randomUUID } from 'node:crypto';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { isRecord } from '../../../common/is-record';
import { urlAllowedByPatterns } from '../../../common/net/url-patterns';
import type { NormalizedConfig } from '../../config';
import { invalidParams } from '../protocol/errors';
import { withJsonFieldNames } from '../protocol/proto-field-names';
import type { PushConfigInput, PushConfigRow } from '../store/push-store.port';

/** A task has at most this many push configs: each one is a delivery per event. */
export const MAX_PUSH_CONFIGS_PER_TASK = 10;
const MAX_URL_CHARS = 2048;
const MAX_TOKEN_CHARS = 1024;
const MAX_CREDENTIALS_CHARS = 4096;
const CONFIG_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** An HTTP authentication scheme name (RFC 9110 token). */
const SCHEME = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,63}$/;
/**
 * What a token or credential may hold, since each is sent as a header value (X-A2A-Notification-Token, Authorization):
 * printable ASCII, spaces and tabs only between other characters. The HTTP client refuses anything outside Latin-1
 * (U+2028 and every other non-ASCII character would make every attempt fail, an hour of retries for nothing); Latin-1
 * beyond ASCII goes out as single bytes a receiver reads as something else, and receivers trim spaces at either end:
 * either way the receiver would not see the value the peer gave.
 */
const HEADER_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?$/;

type PeerSettings = NormalizedConfig['channels']['a2a']['peers'][string];

function text(value: unknown, name: string, max: number): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw invalidParams(`${name} must be a string`);
  if (value.length > max) throw invalidParams(`${name} is longer than ${max} characters`);
  if (/[\r\n\0]/.test(value)) throw invalidParams(`${name} must not contain line breaks`);
  return value;
}

/** `text` for a value that is sent as the header `header`: refused, naming the field, unless HEADER_VALUE holds. */
function headerText(value: unknown, name: string, max: number, header: string): string | undefined {
  const read = text(value, name, max);
  if (read === undefined || HEADER_VALUE.test(read)) return read;
  throw invalidParams(`${name} must be printable ASCII, without spaces at either end: it is sent as the ${header} header${whereNot(read)}`);
}

/** Which character breaks the rule (its code point and position, never the value itself). */
function whereNot(value: string): string {
  const chars = [...value];
  const at = chars.findIndex((ch) => !/[\x20-\x7e\t]/.test(ch));
  if (at < 0) return ' (it starts or ends with a space or tab)';
  const codePoint = chars[at].codePointAt(0) ?? 0;
  return ` (character ${at + 1} is U+${codePoint.toString(16).toUpperCase().padStart(4, '0')})`;
}

/**
 * A TaskPushNotificationConfig (`url`, `token`, `authentication {scheme, credentials}`, `id`), as CreateTask-
 * PushNotificationConfig and SendMessage's `configuration.taskPushNotificationConfig` carry it; `at` names where.
 * The URL must match one of the peer's operator-configured patterns (docs/a2a-push.md#allowed-urls).
 */
export function readPushConfig(raw: unknown, peer: PeerSettings, wire: PushConfigInput['wire'], at = ''): PushConfigInput {
  if (!isRecord(raw)) throw invalidParams(`${at || 'params'} must be an object`);
  if (!peer.pushUrls.length) {
    throw new AppError(
      ErrorCode.PushNotificationNotSupported,
      `Push notifications are not enabled for peer "${peer.name}": the gateway's operator lists the URLs it may register in channels.a2a.peers.${peer.name}.pushUrls`,
    );
  }
  const url = text(raw.url, `${at}url`, MAX_URL_CHARS);
  if (!url) throw invalidParams(`${at}url is required`);
  if (!urlAllowedByPatterns(url, peer.pushUrls)) {
    throw invalidParams(
      `${at}url is not allowed for this peer: it must be an http(s) URL matching one of channels.a2a.peers.${peer.name}.pushUrls`,
    );
  }
  const id = text(raw.id, `${at}id`, 128);
  if (id !== undefined && !CONFIG_ID.test(id)) throw invalidParams(`${at}id must match ${CONFIG_ID.source}`);
  const token = headerText(raw.token, `${at}token`, MAX_TOKEN_CHARS, 'X-A2A-Notification-Token');
  let authentication: PushConfigInput['authentication'];
  if (raw.authentication !== undefined && raw.authentication !== null) {
    if (!isRecord(raw.authentication)) throw invalidParams(`${at}authentication must be an object`);
    const scheme = text(raw.authentication.scheme, `${at}authentication.scheme`, 64);
    if (!scheme || !SCHEME.test(scheme))
      throw invalidParams(`${at}authentication.scheme must be an HTTP authentication scheme such as Bearer`);
    const credentials = headerText(
      raw.authentication.credentials,
      `${at}authentication.credentials`,
      MAX_CREDENTIALS_CHARS,
      'Authorization',
    );
    authentication = { scheme, ...(credentials !== undefined ? { credentials } : {}) };
  }
  return {
    id: id ?? randomUUID(),
    url,
    wire,
    ...(token !== undefined ? { token } : {}),
    ...(authentication ? { authentication } : {}),
  };
}

/** A push-config call's params: the task and, for Get/Delete, the config's id (List: ''). */
export interface PushConfigRefInput {
  taskId: string;
  id: string;
}

/** CreateTaskPushNotificationConfig's params: the task, and the config as sent (readPushConfig checks it for the peer). */
export interface CreatePushConfigInput {
  taskId: string;
  config: Record<string, unknown>;
}

/** `{taskId, id}` of Get/DeleteTaskPushNotificationConfig; `{taskId}` of List (`needsId` false). */
export function readPushConfigRef(params: unknown, needsId: boolean): PushConfigRefInput {
  const { taskId, config: p } = readCreateParams(params);
  if (!needsId) return { taskId, id: '' };
  if (typeof p.id !== 'string' || !p.id) throw invalidParams('id is required (the push notification config id)');
  return { taskId, id: p.id };
}

/** CreateTaskPushNotificationConfig params (and the `taskId` every push-config call names): the config with its `taskId`. */
export function readCreateParams(params: unknown): CreatePushConfigInput {
  if (!isRecord(params)) throw invalidParams('params must be an object');
  const p = withJsonFieldNames(params, ['taskId']);
  if (typeof p.taskId !== 'string' || !p.taskId) throw invalidParams('taskId is required');
  return { taskId: p.taskId, config: p };
}

/** A config as the peer reads it back: the credentials it gave are never returned. */
export function toWirePushConfig(row: PushConfigRow): Record<string, unknown> {
  return {
    id: row.id,
    taskId: row.task_id,
    url: row.url,
    ...(row.token !== null ? { token: row.token } : {}),
    ...(row.auth_scheme !== null ? { authentication: { scheme: row.auth_scheme } } : {}),
  };
}
