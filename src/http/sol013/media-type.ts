/** Media type parsing and Accept matching (RFC 9110 §12.5.1), small and strict. */

/** `application/json; charset=utf-8` → `application/json`. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  return contentType.split(';')[0].trim().toLowerCase() || undefined;
}

interface AcceptRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(accept: string): AcceptRange[] {
  return accept
    .split(',')
    .map((part) => {
      const [range, ...params] = part.split(';').map((s) => s.trim());
      const [type = '', subtype = ''] = range.toLowerCase().split('/');
      const qParam = params.find((p) => p.toLowerCase().startsWith('q='));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      return { type, subtype, q: Number.isFinite(q) ? q : 0 };
    })
    .filter((r) => r.type && r.subtype && r.q > 0);
}

/**
 * The produced media type the client prefers, or undefined when it accepts none of them.
 * A missing or empty Accept accepts everything (the first offer).
 */
export function negotiate(accept: string | undefined, offers: readonly string[]): string | undefined {
  if (!accept || accept.trim() === '') return offers[0];
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return offers[0];
  let best: { offer: string; q: number; specificity: number } | undefined;
  for (const offer of offers) {
    const [type, subtype] = offer.split('/');
    for (const r of ranges) {
      const matches = (r.type === '*' || r.type === type) && (r.subtype === '*' || r.subtype === subtype);
      if (!matches) continue;
      const specificity = (r.type === '*' ? 0 : 1) + (r.subtype === '*' ? 0 : 1);
      if (!best || r.q > best.q || (r.q === best.q && specificity > best.specificity)) {
        best = { offer, q: r.q, specificity };
      }
    }
  }
  return best?.offer;
}
