/**
 * Notifications are built where there may be no request to take a host from (a worker), so
 * their `_links` hrefs are path-absolute (`/vnfpkgm/v1/...`). SOL013 wants absolute URIs: they
 * are resolved at delivery against server.publicUrl, or the server's own listening URL.
 *
 * This runs for every notification sent, so it works on the JSON text rather than parsing it:
 * in JSON text a quote inside a string is always escaped, so an unescaped `"_links":{` is a key
 * and an unescaped `"href":"/` inside that object is a link's href. Only the `_links` objects
 * are rewritten; whatever else the payload carries (a client's metadata) is left as it is.
 */

const LINKS = '"_links":{';
const HREF = '"href":"/';

/** The payload with every `_links` href that starts with `/` (not `//`) prefixed by `base` (no trailing /). */
export function absolutizeLinks(payload: string, base: string): string {
  let out = '';
  let copied = 0;
  let at = payload.indexOf(LINKS);
  while (at !== -1) {
    const open = at + LINKS.length - 1;
    const close = objectEnd(payload, open);
    let href = payload.indexOf(HREF, open);
    while (href !== -1 && href < close) {
      const path = href + HREF.length - 1;
      if (payload[path + 1] !== '/') {
        out += payload.slice(copied, path) + base;
        copied = path;
      }
      href = payload.indexOf(HREF, path);
    }
    at = payload.indexOf(LINKS, close);
  }
  return copied === 0 ? payload : out + payload.slice(copied);
}

/** The index just past the `}` closing the object opened at `open`, skipping strings. */
function objectEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: to its closing quote, past escapes.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The base URL for links: configured public URL, else this server's listening URL. */
export function linkBase(publicUrl: string, listeningUrl: string): string {
  return (publicUrl || listeningUrl).replace(/\/+$/, '');
}
