/**
 * SOL013 paging: the next page of a list is the `Link: <…>; rel="next"` the server answered.
 * Only its path and query are kept, so the console stays on its own origin whatever the link says.
 */
export function nextPagePath(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const m = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!m) continue;
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(m[2]);
    if (!(rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).includes('next')) continue;
    const target = new URL(m[1], window.location.origin);
    return target.pathname + target.search;
  }
  return undefined;
}
