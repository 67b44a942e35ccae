/** The longest start of `text` of at most `maxBytes` UTF-8 bytes that ends on a character boundary. */
export function cutUtf8(text: string, maxBytes: number): string {
  // Every UTF-16 unit is at most 3 UTF-8 bytes: short strings never need the byte count.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const bytes = Buffer.from(text, 'utf8');
  let cut = maxBytes;
  // A continuation byte (10xxxxxx) at the cut means the character starting before it would be split.
  while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
  return bytes.subarray(0, cut).toString('utf8');
}
