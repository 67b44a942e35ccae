/** One part of a multipart/form-data body (RFC 7578): its field name, and the filename and type of a file part. */
export interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/**
 * Parses a multipart/form-data body (RFC 7578, RFC 2046 §5.1) as the platform fakes receive uploads: the parts
 * between `--<boundary>` delimiters, each with its headers (`Content-Disposition: form-data; name="…"; filename=…`,
 * case-insensitive, the filename quoted or not, as clients write it) and its bytes as they are. Throws on a body
 * that is not one (no boundary, a part without a name), naming what is wrong.
 */
export function parseMultipart(body: Buffer, contentType: string): FormPart[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) throw new Error('multipart/form-data without a boundary');
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw new Error('multipart body without its boundary');
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') return parts;
    at += 2; // CRLF after the delimiter
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), at);
    if (next < 0) throw new Error('multipart body not closed by its boundary');
    const part = body.subarray(at, next);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd < 0) throw new Error('multipart part without headers');
    const headers = part.subarray(0, headerEnd).toString('utf8').split('\r\n');
    const disposition = headers.find((h) => /^content-disposition:/i.test(h)) ?? '';
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) throw new Error('multipart part without a name');
    const filename = /;\s*filename=(?:"([^"]*)"|([^;\r\n]+))/i.exec(disposition);
    const type = headers.find((h) => /^content-type:/i.test(h))?.replace(/^content-type:\s*/i, '');
    parts.push({
      name,
      ...(filename ? { filename: filename[1] ?? filename[2].trim() } : {}),
      ...(type ? { contentType: type } : {}),
      data: Buffer.from(part.subarray(headerEnd + 4)),
    });
    at = next + 2;
  }
}
