/**
 * Glance (image v2): image records, the upload of an image's bytes streamed straight from the
 * package blob, lookup by checksum so an image is uploaded once whatever package carries it, and
 * delete. Bosun marks what it uploads with the property `bosun_checksum` (`<algorithm>:<hex>`,
 * the package manifest's digest): Glance's own `os_hash_value` is sha512 by default, while
 * packages mostly give sha-256.
 */
import type { Readable } from 'node:stream';
import type { OpenStackSession } from './session.ts';

export interface Image {
  id: string;
  name?: string;
  status: string;
  checksum?: string | null;
  os_hash_algo?: string | null;
  os_hash_value?: string | null;
  size?: number | null;
  disk_format?: string | null;
  container_format?: string | null;
  visibility?: string;
  tags?: string[];
  bosun_checksum?: string;
  [property: string]: unknown;
}

export interface ImageCreate {
  name: string;
  diskFormat: string;
  containerFormat: string;
  minDiskGb?: number;
  minRamMb?: number;
  visibility?: 'private' | 'shared' | 'community' | 'public';
  tags?: string[];
  /** Extra properties (strings). */
  properties?: Record<string, string>;
}

/** An upload is silent (no byte accepted) at most this long. */
const UPLOAD_IDLE_MS = 5 * 60_000;

export class Glance {
  readonly #s: OpenStackSession;
  constructor(session: OpenStackSession) {
    this.#s = session;
  }

  async createImage(create: ImageCreate, signal?: AbortSignal): Promise<Image> {
    const r = await this.#s.call<Image>('image', `image create ${create.name}`, {
      method: 'POST',
      path: '/v2/images',
      json: {
        name: create.name,
        disk_format: create.diskFormat,
        container_format: create.containerFormat,
        visibility: create.visibility ?? 'private',
        ...(create.minDiskGb ? { min_disk: create.minDiskGb } : {}),
        ...(create.minRamMb ? { min_ram: create.minRamMb } : {}),
        ...(create.tags ? { tags: create.tags } : {}),
        ...create.properties,
      },
      signal,
    });
    return r.data;
  }

  /** Streams the image's bytes into the record (status queued → active). */
  async upload(id: string, body: Readable, signal?: AbortSignal): Promise<void> {
    await this.#s.call('image', `image upload ${id}`, {
      method: 'PUT',
      path: `/v2/images/${encodeURIComponent(id)}/file`,
      headers: { 'content-type': 'application/octet-stream' },
      stream: body,
      timeoutMs: UPLOAD_IDLE_MS,
      signal,
    });
  }

  async image(id: string, signal?: AbortSignal): Promise<Image | undefined> {
    const r = await this.#s.call<Image>('image', `image show ${id}`, {
      method: 'GET',
      path: `/v2/images/${encodeURIComponent(id)}`,
      ok: [200, 404],
      signal,
    });
    return r.status === 404 ? undefined : r.data;
  }

  async images(filter: Record<string, string | undefined>, signal?: AbortSignal): Promise<Image[]> {
    const r = await this.#s.call<{ images: Image[] }>('image', 'image list', {
      method: 'GET',
      path: '/v2/images',
      query: { limit: 100, ...filter },
      signal,
    });
    return r.data.images;
  }

  /**
   * An active image with these bytes: one Bosun uploaded (its `bosun_checksum`), or for sha-512
   * any image whose Glance hash is the same.
   */
  async findByChecksum(algorithm: string, hash: string, signal?: AbortSignal): Promise<Image | undefined> {
    const algo = algorithm.toLowerCase().replace(/-/g, '');
    const hex = hash.toLowerCase();
    const ours = await this.images({ bosun_checksum: `${algo}:${hex}`, status: 'active' }, signal);
    if (ours[0]) return ours[0];
    if (algo !== 'sha512') return undefined;
    const theirs = await this.images({ os_hash_value: hex, status: 'active' }, signal);
    return theirs.find((i) => i.os_hash_algo === 'sha512');
  }

  async deleteImage(id: string, signal?: AbortSignal): Promise<void> {
    await this.#s.call('image', `image delete ${id}`, {
      method: 'DELETE',
      path: `/v2/images/${encodeURIComponent(id)}`,
      ok: [204, 404],
      signal,
    });
  }
}
