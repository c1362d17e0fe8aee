/**
 * SOL013 §5.4 paging markers. A marker is opaque to clients but self-contained for us: the
 * listing it belongs to (resource, filter, project) and the last key of the page, signed with
 * a key shared through the database — so it survives restarts, works on any replica, and a
 * forged marker or one from another listing is refused with 400.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServerKeys } from '../../security/server-keys.ts';
import { ApiError } from '../../sol/problem.ts';

export const MARKER_PARAM = 'nextpage_opaque_marker';

interface MarkerBody {
  /** Resource list name. */
  r: string;
  /** Hash of what else defines the listing (filter, project). */
  q: string;
  /** Sort key of the last item of the previous page. */
  k: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 16);

export class PagingMarkers {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    this.#key = key;
  }

  static async fromKeys(keys: ServerKeys): Promise<PagingMarkers> {
    return new PagingMarkers(await keys.get('paging-marker-key', () => randomBytes(32)));
  }

  #sign(payload: string): Buffer {
    return createHmac('sha256', this.#key).update(payload).digest().subarray(0, 16);
  }

  encode(resource: string, listing: string, lastKey: string): string {
    const body: MarkerBody = { r: resource, q: digest(listing), k: lastKey };
    const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${payload}.${this.#sign(payload).toString('base64url')}`;
  }

  /** The last key the marker carries; 400 when it is forged, damaged or from another listing. */
  decode(resource: string, listing: string, marker: string): string {
    const invalid = (why: string) =>
      new ApiError(
        400,
        `Paging marker '${marker.length > 64 ? marker.slice(0, 64) + '…' : marker}' is invalid: ${why}. Restart the listing without ${MARKER_PARAM}.`,
      );
    const [payload, signature, extra] = marker.split('.');
    if (!payload || !signature || extra !== undefined)
      throw invalid('it is not a marker issued by this server');
    const given = Buffer.from(signature, 'base64url');
    const expected = this.#sign(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw invalid('it is not a marker issued by this server');
    }
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as MarkerBody;
    if (body.r !== resource) throw invalid(`it belongs to a listing of ${body.r}`);
    if (body.q !== digest(listing)) throw invalid('it belongs to a listing with another filter or project');
    return body.k;
  }
}
