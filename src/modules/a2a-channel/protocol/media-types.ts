/**
 * Media types of the files peers attach (docs/a2a.md#files): what a part declares, whether the operator's
 * `channels.a2a.files.mediaTypes` accepts it (whether the agent reads it as text is common/attachments').
 */

/** A concrete media type, lowercase, without parameters (RFC 6838 restricted names). */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** What a raw part without a media type is taken to be (RFC 2046: arbitrary bytes). */
export const UNKNOWN_MEDIA_TYPE = 'application/octet-stream';

/** `text/plain; charset=utf-8` → `text/plain`; undefined when the value is not a media type. */
export function parseMediaType(value: string): string | undefined {
  const bare = value.split(';', 1)[0].trim().toLowerCase();
  return MEDIA_TYPE.test(bare) ? bare : undefined;
}

/** True when one of the (lowercase) ranges — `type/subtype`, `type/*`, or the any-type range — covers `mediaType`. */
export function mediaTypeAccepted(mediaType: string, ranges: readonly string[]): boolean {
  const type = mediaType.slice(0, mediaType.indexOf('/'));
  return ranges.some((range) => range === mediaType || range === `${type}/*` || range === '*/*');
}

/** The media type the specification gives A2A's HTTP+JSON requests and responses, and push deliveries. */
export const A2A_JSON_CONTENT_TYPE = 'application/a2a+json';
