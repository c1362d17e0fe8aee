/**
 * A streaming reader for `multipart/form-data` uploads (SOL005 allows the package as a form
 * file): yields the bytes of the first part that carries a file (a filename, or the name
 * "file"), without buffering the body. Other parts are skipped (bounded in size).
 */
import { ApiError } from '../../../sol/problem.ts';

const MAX_HEADER_BYTES = 16 * 1024;
const MAX_SKIPPED_PART_BYTES = 1024 * 1024;

export function boundaryOf(contentType: string | undefined): string {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary || boundary.length > 70) {
    throw new ApiError(400, 'The multipart/form-data request has no valid boundary parameter.');
  }
  return boundary;
}

const isFilePart = (headers: string) => /filename=|name="?file"?[;\s\r]|name="?file"?$/i.test(headers);

export async function* multipartFile(body: AsyncIterable<Buffer>, boundary: string): AsyncGenerator<Buffer> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // Prepend CRLF so the first boundary (which has none) looks like all the others.
  let buffer: Buffer = Buffer.from('\r\n');
  let state: 'preamble' | 'headers' | 'file' | 'skip' | 'done' = 'preamble';
  let skipped = 0;
  for await (const chunk of body) {
    if (state === 'done') continue;
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    for (;;) {
      if (state === 'preamble' || state === 'skip') {
        const at = buffer.indexOf(delimiter);
        if (at < 0) {
          skipped += buffer.length - delimiter.length;
          if (skipped > MAX_SKIPPED_PART_BYTES)
            throw new ApiError(400, 'The multipart body has no file part.');
          buffer = buffer.subarray(Math.max(0, buffer.length - delimiter.length));
          break;
        }
        buffer = buffer.subarray(at + delimiter.length);
        state = 'headers';
        skipped = 0;
      }
      if (state === 'headers') {
        if (buffer.length >= 2 && buffer[0] === 0x2d && buffer[1] === 0x2d) {
          throw new ApiError(400, 'The multipart body has no file part.');
        }
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) {
          if (buffer.length > MAX_HEADER_BYTES)
            throw new ApiError(400, 'A multipart part header is too large.');
          break;
        }
        const headers = buffer.subarray(0, end).toString('latin1');
        buffer = buffer.subarray(end + 4);
        state = isFilePart(headers) ? 'file' : 'skip';
        continue;
      }
      // state === 'file': emit everything that cannot be the start of the delimiter.
      const at = buffer.indexOf(delimiter);
      if (at >= 0) {
        if (at > 0) yield buffer.subarray(0, at);
        // The rest of the body (epilogue, other parts) is read and dropped.
        state = 'done';
        buffer = Buffer.alloc(0);
        break;
      }
      const keep = delimiter.length - 1;
      if (buffer.length > keep) {
        yield buffer.subarray(0, buffer.length - keep);
        buffer = buffer.subarray(buffer.length - keep);
      }
      break;
    }
  }
  if (state === 'done') return;
  throw new ApiError(
    400,
    state === 'file'
      ? 'The multipart body ends before its closing boundary.'
      : 'The multipart body has no file part.',
  );
}
