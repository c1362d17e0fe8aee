/** The `rel="next"` target of a Link header (RFC 8288), as path + query of the base URL. */

export function nextLink(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const m = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!m) continue;
    const rels = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(m[2]);
    const rel = (rels?.[1] ?? rels?.[2] ?? '').toLowerCase().split(/\s+/);
    if (!rel.includes('next')) continue;
    // The server may name itself differently (publicUrl, proxy): keep our base, its path and query.
    const target = new URL(m[1], 'http://base.invalid');
    return target.pathname + target.search;
  }
  return undefined;
}
