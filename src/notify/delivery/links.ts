/**
 * Notifications are built where there may be no request to take a host from (a worker), so
 * their `_links` hrefs are path-absolute (`/vnfpkgm/v1/...`). SOL013 wants absolute URIs: they
 * are resolved at delivery against server.publicUrl, or the server's own listening URL.
 */

/** The payload with every `_links` href that starts with `/` prefixed by `base` (no trailing /). */
export function absolutizeLinks(payload: string, base: string): string {
  // Most payloads are small and all carry links; the check still spares a parse for the others.
  if (!payload.includes('"href":"/')) return payload;
  const doc = JSON.parse(payload) as unknown;
  absolutize(doc, base, false);
  return JSON.stringify(doc);
}

function absolutize(value: unknown, base: string, inLinks: boolean): void {
  if (Array.isArray(value)) {
    for (const item of value) absolutize(item, base, inLinks);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const object = value as Record<string, unknown>;
  if (
    inLinks &&
    typeof object.href === 'string' &&
    object.href.startsWith('/') &&
    !object.href.startsWith('//')
  ) {
    object.href = base + object.href;
  }
  for (const [key, child] of Object.entries(object)) {
    // A link is an object under `_links` (or a list of them, e.g. affectedVnfcs-like arrays).
    absolutize(child, base, key === '_links' || (inLinks && !('href' in object)));
  }
}

/** The base URL for links: configured public URL, else this server's listening URL. */
export function linkBase(publicUrl: string, listeningUrl: string): string {
  return (publicUrl || listeningUrl).replace(/\/+$/, '');
}
