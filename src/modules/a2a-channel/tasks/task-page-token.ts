import { decodePosition, encodePosition } from '../../../common/text/position-token';
import { invalidParams } from '../protocol/errors';

/** A position in a peer's task list: the last task of a page, by (status timestamp, row). */
export interface TaskPosition {
  updatedAt: number;
  seq: number;
}

export function encodePageToken(position: TaskPosition): string {
  return encodePosition(position.updatedAt, position.seq);
}

/** -32602 for anything this endpoint did not issue. */
export function decodePageToken(token: string): TaskPosition {
  const position = decodePosition(token);
  if (!position) throw invalidParams('pageToken is not one this endpoint issued (pass nextPageToken from the previous page unchanged)');
  return { updatedAt: position.at, seq: position.seq };
}
