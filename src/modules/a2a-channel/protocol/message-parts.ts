import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import type { A2aFilePolicy } from '../../config';
import { MAX_FILE_PARTS, MAX_FILENAME_CHARS, MAX_FILE_URL_CHARS } from './limits-and-messages';
import { invalidParams } from './errors';
import { mediaTypeAccepted, parseMediaType, UNKNOWN_MEDIA_TYPE } from './media-types';
import { PROTO_NAMED_FIELDS, withJsonFieldNames } from './proto-field-names';

/** A file a peer attached: its bytes (a `raw` part), or a link the gateway never follows (a `url` part). */
export type FilePart =
  | { kind: 'raw'; part: number; filename?: string; mediaType: string; bytes: Buffer }
  | { kind: 'url'; part: number; filename?: string; mediaType?: string; url: string };

export interface MessageParts {
  /** `text` parts as they are and `data` parts as compact JSON, in part order, joined with `\n`; may be empty. */
  text: string;
  files: FilePart[];
}

/** Standard or URL-safe base64, padded or not: what ProtoJSON accepts for `bytes`. */
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Reads the parts of an A2A message (docs/a2a.md#files), in the 1.0 shape (`{text}`, `{data}`, `{raw, filename,
 * mediaType}`, `{url, filename, mediaType}`) and the 0.3 shape (`{kind: "text", text}`, `{kind: "file", file: {bytes
 * | uri, name, mimeType}}`). A file part whose media type the policy does not accept is -32005; a part that cannot
 * be read, invalid base64, or raw files over `maxBytes` in total are -32602 naming the part. A message needs text
 * or a file.
 */
export function readMessageParts(parts: readonly unknown[], policy: A2aFilePolicy): MessageParts {
  const pieces: string[] = [];
  const files: FilePart[] = [];
  let rawBytes = 0;
  parts.forEach((part, i) => {
    const at = `message.parts[${i}]`;
    if (typeof part !== 'object' || part === null || Array.isArray(part)) throw invalidParams(`${at} must be an object`);
    const p = withJsonFieldNames(part as Record<string, unknown>, PROTO_NAMED_FIELDS.part, `${at}.`);
    if (p.text !== undefined) {
      if (typeof p.text !== 'string') throw invalidParams(`${at}.text must be a string`);
      pieces.push(p.text);
      return;
    }
    if (p.data !== undefined) {
      pieces.push(JSON.stringify(p.data));
      return;
    }
    const file = fileFields(p, at);
    if (!file) throw invalidParams(`${at} has no text, data, raw or url content`);
    if (files.length === MAX_FILE_PARTS) throw invalidParams(`${at}: a message may carry at most ${MAX_FILE_PARTS} file parts`);
    const filename = checkedFilename(file.filename, at);
    const declared = checkedMediaType(file.mediaType, at);
    if (file.url !== undefined) {
      // Only a link in the agent's text, never fetched; a media type it declares must still be one the operator accepts.
      if (declared !== undefined) refuseUnaccepted(declared, policy, at);
      files.push({ kind: 'url', part: i, filename, mediaType: declared, url: checkedUrl(file.url, at) });
      return;
    }
    const mediaType = declared ?? UNKNOWN_MEDIA_TYPE;
    refuseUnaccepted(mediaType, policy, at);
    const raw = checkedBase64(file.raw, at);
    rawBytes += decodedLength(raw);
    if (rawBytes > policy.maxBytes) {
      throw invalidParams(
        `${at}: the files of one message may total at most ${policy.maxBytes} bytes (channels.a2a.files.maxBytes); with this part they are ${rawBytes}`,
      );
    }
    files.push({ kind: 'raw', part: i, filename, mediaType, bytes: Buffer.from(raw, 'base64') });
  });
  const text = pieces.join('\n');
  if (!files.length && !text.trim())
    throw invalidParams(pieces.length ? 'message has no text' : 'message.parts has no text, data or file part');
  return { text, files };
}

interface FileFields {
  raw?: unknown;
  url?: unknown;
  filename?: unknown;
  mediaType?: unknown;
}

/** The file fields of a 1.0 (`raw`/`url`) or 0.3 (`kind: "file"`, `file: {bytes | uri}`) part; undefined for neither. */
function fileFields(p: Record<string, unknown>, at: string): FileFields | undefined {
  if (p.raw !== undefined) return { raw: p.raw, filename: p.filename, mediaType: p.mediaType };
  if (p.url !== undefined) return { url: p.url, filename: p.filename, mediaType: p.mediaType };
  if (p.file === undefined) return undefined;
  if (typeof p.file !== 'object' || p.file === null || Array.isArray(p.file)) throw invalidParams(`${at}.file must be an object`);
  const f = p.file as Record<string, unknown>;
  if (f.bytes !== undefined) return { raw: f.bytes, filename: f.name, mediaType: f.mimeType };
  if (f.uri !== undefined) return { url: f.uri, filename: f.name, mediaType: f.mimeType };
  throw invalidParams(`${at}.file has neither bytes nor uri`);
}

function checkedFilename(value: unknown, at: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || value.length > MAX_FILENAME_CHARS) {
    throw invalidParams(`${at}.filename must be a string of at most ${MAX_FILENAME_CHARS} characters`);
  }
  return value;
}

function checkedMediaType(value: unknown, at: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  const mediaType = typeof value === 'string' ? parseMediaType(value) : undefined;
  if (mediaType === undefined) throw invalidParams(`${at}.mediaType must be a media type such as "text/plain"`);
  return mediaType;
}

function refuseUnaccepted(mediaType: string, policy: A2aFilePolicy, at: string): void {
  if (mediaTypeAccepted(mediaType, policy.mediaTypes)) return;
  throw new AppError(ErrorCode.ContentTypeNotSupported, `Content type not supported: ${at} is ${mediaType}`, [
    { mediaType, part: at, acceptedMediaTypes: policy.mediaTypes.join(',') },
  ]);
}

function checkedUrl(value: unknown, at: string): string {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' && value.length <= MAX_FILE_URL_CHARS ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw invalidParams(`${at}.url must be an absolute http(s) URL of at most ${MAX_FILE_URL_CHARS} characters`);
  }
  return value as string;
}

/** The value when it is base64 that decodes to whole bytes; checked before anything is decoded. */
function checkedBase64(value: unknown, at: string): string {
  const invalid = () => invalidParams(`${at}.raw is not valid base64`);
  if (typeof value !== 'string' || !BASE64.test(value)) throw invalid();
  const unpadded = unpaddedLength(value);
  // A lone final character carries fewer than 8 bits; padding only ever completes a group of four.
  if (unpadded % 4 === 1 || (unpadded !== value.length && value.length % 4 !== 0)) throw invalid();
  return value;
}

function unpaddedLength(base64: string): number {
  let end = base64.length;
  while (end > 0 && base64[end - 1] === '=') end--;
  return end;
}

/** Bytes a checked base64 value decodes to (every 4 characters are 3 bytes). */
function decodedLength(base64: string): number {
  return Math.floor((unpaddedLength(base64) * 3) / 4);
}
