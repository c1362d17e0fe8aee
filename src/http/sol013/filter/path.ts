/**
 * SOL013 attribute names: '/' separates segments, and a tilde escapes the characters that are
 * otherwise syntax: ~0 → '~', ~1 → '/', ~a → ',', ~b → '@'. Shared by filters and selectors.
 */

const ESCAPES: Readonly<Record<string, string>> = { '0': '~', '1': '/', a: ',', b: '@' };

export type PathResult = { ok: true; path: string[] } | { ok: false; error: string; offset: number };

/** Splits a raw attribute path on '/' and decodes escapes; `offset` of an error is 0-based in `raw`. */
export function decodePath(raw: string): PathResult {
  const path: string[] = [];
  let segment = '';
  let segmentStart = 0;
  for (let i = 0; i <= raw.length; i++) {
    const c = raw[i];
    if (c === undefined || c === '/') {
      if (segment === '') {
        const error = raw === '' ? 'missing attribute name' : `empty attribute name segment in '${raw}'`;
        return { ok: false, error, offset: segmentStart };
      }
      path.push(segment);
      segment = '';
      segmentStart = i + 1;
    } else if (c === '~') {
      const decoded = ESCAPES[raw[i + 1] ?? ''];
      if (decoded === undefined) {
        const bad = raw.slice(i, i + 2);
        return {
          ok: false,
          error: `invalid escape '${bad}'; use ~0 (~), ~1 (/), ~a (,) or ~b (@)`,
          offset: i,
        };
      }
      segment += decoded;
      i++;
    } else if (c === '@') {
      // '@key' (the keys of a map) is SOL013 syntax we do not support; a literal '@' must be escaped.
      return { ok: false, error: `'@' in an attribute name must be escaped as ~b`, offset: i };
    } else {
      segment += c;
    }
  }
  return { ok: true, path };
}

/** Re-encodes a decoded path for messages, so users see what they would type. */
export function encodePath(path: readonly string[]): string {
  return path
    .map((s) => s.replace(/[~/,@]/g, (c) => `~${{ '~': '0', '/': '1', ',': 'a', '@': 'b' }[c]}`))
    .join('/');
}
