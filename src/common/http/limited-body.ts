import type { IncomingMessage } from 'node:http';

export type BodyResult = { kind: 'ok'; bytes: Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

/**
 * Reads a request body of at most `limit` bytes. A declared Content-Length over the limit is refused before
 * a byte is buffered; a chunked body is refused as soon as it crosses the limit. Either way the rest is
 * discarded unread (the caller answers 413 with `Connection: close`, which ends the socket once the
 * answer is out), so an oversized body never costs more than `limit` bytes of memory.
 */
export function readLimitedBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    req.resume();
    return Promise.resolve({ kind: 'too-large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyResult) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        finish({ kind: 'too-large' });
        req.resume();
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish({ kind: 'ok', bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size) });
    const onAbort = () => finish({ kind: 'aborted' });
    const onClose = () => {
      if (!req.complete) finish({ kind: 'aborted' });
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onClose);
  });
}
