/**
 * HTTP Range for downloads (RFC 9110 §14): one `bytes=` range, including suffix ranges, is
 * served as 206; an unsatisfiable one is 416 with `Content-Range: bytes *\/size`. Several
 * ranges are refused with 400 (as Tacker does). A malformed header or another unit is
 * ignored and the whole representation sent, as RFC 9110 allows.
 */

import { ApiError } from '../../../sol/problem.ts';
import type { ByteRange } from '../../../store/blobs/blob-store.ts';

const SINGLE = /^bytes=\s*(\d*)-(\d*)\s*$/;

/** undefined: send the whole content. */
export function parseRange(header: string | undefined, size: number): ByteRange | undefined {
  if (!header) return undefined;
  if (/^bytes=/.test(header) && header.includes(',')) {
    throw new ApiError(400, 'Only a single byte range is supported in the Range header.');
  }
  const m = SINGLE.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) throw unsatisfiable(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return undefined;
  }
  if (start >= size) throw unsatisfiable(size);
  return { start, end };
}

function unsatisfiable(size: number): ApiError {
  return new ApiError(416, `The requested range is not satisfiable: the content is ${size} bytes long.`, {
    headers: { 'Content-Range': `bytes */${size}` },
  });
}
