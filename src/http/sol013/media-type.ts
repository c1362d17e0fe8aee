/** Media type parsing and Accept matching (RFC 9110 §12.5.1), small and strict. */

/** `application/json; charset=utf-8` → `application/json`. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  return contentType.split(';')[0].trim().toLowerCase() || undefined;
}

/** The charset parameter, lowercased and unquoted: `text/plain; charset="UTF-8"` → `utf-8`. */
export function charsetOf(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  for (const param of contentType.split(';').slice(1)) {
    const [name, value = ''] = param.split('=', 2).map((s) => s.trim());
    if (name.toLowerCase() === 'charset') return value.replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return undefined;
}

interface AcceptRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(accept: string): AcceptRange[] {
  return (
    accept
      .split(',')
      .map((part) => {
        const [range, ...params] = part.split(';').map((s) => s.trim());
        const [type = '', subtype = ''] = range.toLowerCase().split('/');
        const qParam = params.find((p) => p.toLowerCase().startsWith('q='));
        const q = qParam ? Number(qParam.slice(2).trim() || Number.NaN) : 1;
        return { type, subtype, q };
      })
      // A range that cannot be read (no subtype, a q that is no number in 0..1) says nothing.
      .filter((r) => r.type && r.subtype && r.q >= 0 && r.q <= 1)
  );
}

/**
 * The produced media type the client prefers, or undefined when it accepts none of them. An
 * offer's quality is that of the most specific range matching it, so `q=0` refuses it
 * (`*\/*;q=0` refuses everything). A missing, empty or unparseable Accept accepts everything.
 */
export function negotiate(accept: string | undefined, offers: readonly string[]): string | undefined {
  if (!accept || accept.trim() === '') return offers[0];
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return offers[0];
  let best: { offer: string; q: number; specificity: number } | undefined;
  for (const offer of offers) {
    const [type, subtype] = offer.split('/');
    let match: { q: number; specificity: number } | undefined;
    for (const r of ranges) {
      if (!((r.type === '*' || r.type === type) && (r.subtype === '*' || r.subtype === subtype))) continue;
      const specificity = (r.type === '*' ? 0 : 1) + (r.subtype === '*' ? 0 : 1);
      if (!match || specificity > match.specificity) match = { q: r.q, specificity };
    }
    if (!match || match.q <= 0) continue;
    // Equal quality: the offer the client named more specifically.
    if (!best || match.q > best.q || (match.q === best.q && match.specificity > best.specificity)) {
      best = { offer, ...match };
    }
  }
  return best?.offer;
}
