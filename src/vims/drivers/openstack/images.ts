/**
 * The Glance images an instance boots from. For each software image the VNFCs need and the
 * grant does not name: an active image with the same checksum is reused (uploaded once whatever
 * package carries it), else the package's image file is streamed from the package blob into a
 * new Glance image marked with its checksum. Each use is a row of `openstack_images`; at
 * terminate (or the rollback of an instantiate) an image goes only when Bosun uploaded it and no
 * other instance still uses it.
 */

import { packageBlobKey } from '../../../packages/package-record.ts';
import type { BlobStore } from '../../../store/blobs/blob-store.ts';
import type { Database } from '../../../store/db/database.ts';
import { openZipPackage } from '../../../vnfd/csar/zip-reader.ts';
import type { SoftwareImage } from '../../../vnfd/model/vnfd.ts';
import { InfraError } from '../../contract.ts';
import type { OpenStackClient } from './client/client.ts';

export interface ImageNeeds {
  /** The cloud and project (images are per project). */
  cloud: string;
  instanceId: string;
  opOccId: string;
  /** The package the VNFD comes from (its images are read from its blob). */
  packageId?: string;
  /** Software images needed, by node name. */
  images: SoftwareImage[];
  signal?: AbortSignal;
}

/** `<algorithm>:<hex>` as Bosun marks its uploads (`bosun_checksum`). */
export const checksumOf = (sw: SoftwareImage) =>
  `${sw.checksum.algorithm.toLowerCase().replace(/-/g, '')}:${sw.checksum.hash.toLowerCase()}`;

/** Node name → Glance image id for every software image, uploading those the cloud lacks. */
export async function ensureImages(
  client: OpenStackClient,
  deps: { db: Database; blobs?: BlobStore },
  needs: ImageNeeds,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const used = await deps.db.kysely
    .selectFrom('openstack_images')
    .selectAll()
    .where('cloud', '=', needs.cloud)
    .where('instance_id', '=', needs.instanceId)
    .execute();
  for (const sw of needs.images) {
    const checksum = checksumOf(sw);
    // A retry finds what the first attempt recorded (if Glance still has it, active).
    const recorded = used.find((u) => u.checksum === checksum);
    if (recorded && (await client.glance.image(recorded.image_id, needs.signal))?.status === 'active') {
      out[sw.id] = recorded.image_id;
      continue;
    }
    const found = await client.glance.findByChecksum(sw.checksum.algorithm, sw.checksum.hash, needs.signal);
    const image = found ?? (await upload(client, deps, needs, sw));
    await record(deps.db, needs, image.id, checksum, image.bosun_checksum !== undefined);
    out[sw.id] = image.id;
  }
  return out;
}

async function upload(
  client: OpenStackClient,
  deps: { blobs?: BlobStore },
  needs: ImageNeeds,
  sw: SoftwareImage,
): Promise<{ id: string; bosun_checksum?: string }> {
  if (!deps.blobs || !needs.packageId) {
    throw new InfraError(
      'INVALID_REQUEST',
      `Software image ${sw.id} (${sw.name}) is not in Glance and its package cannot be read here; upload it to Glance or grant an image for it.`,
      { vduId: sw.id },
    );
  }
  const zip = await deps.blobs.localFile(packageBlobKey(needs.packageId));
  const opened = await openZipPackage(zip);
  const files = opened.files;
  if (!files?.has(sw.packagePath)) {
    await files?.close();
    throw new InfraError(
      'INVALID_REQUEST',
      `Software image ${sw.id} (${sw.name}): its file ${sw.packagePath} is not in the package and Glance has no image with checksum ${checksumOf(sw)}; upload it to Glance first.`,
      { vduId: sw.id },
    );
  }
  try {
    const image = await client.glance.createImage(
      {
        name: sw.name,
        diskFormat: sw.diskFormat,
        containerFormat: sw.containerFormat,
        minDiskGb: Math.ceil(sw.minDisk / 2 ** 30),
        minRamMb: Math.ceil(sw.minRam / 2 ** 20),
        properties: { bosun_checksum: checksumOf(sw) },
      },
      needs.signal,
    );
    try {
      await client.glance.upload(image.id, await files.openStream(sw.packagePath), needs.signal);
    } catch (error) {
      // A half-uploaded image is useless: remove it so that the next attempt uploads afresh.
      await client.glance.deleteImage(image.id).catch(() => undefined);
      throw error;
    }
    return image;
  } finally {
    await files.close();
  }
}

async function record(db: Database, needs: ImageNeeds, imageId: string, checksum: string, ours: boolean) {
  await db.kysely
    .insertInto('openstack_images')
    .values({
      cloud: needs.cloud,
      image_id: imageId,
      instance_id: needs.instanceId,
      op_occ_id: needs.opOccId,
      checksum,
      uploaded_by_bosun: ours ? 1 : 0,
      created_at: new Date().toISOString(),
    })
    .onConflict((c) => c.columns(['cloud', 'image_id', 'instance_id']).doNothing())
    .execute();
}

/**
 * Forgets the instance's images (those recorded by `opOccId` only, when given) and deletes from
 * Glance those Bosun uploaded that no other instance uses. Returns the ids deleted.
 */
export async function releaseImages(
  client: OpenStackClient,
  db: Database,
  where: { cloud: string; instanceId: string; opOccId?: string },
  signal?: AbortSignal,
): Promise<string[]> {
  let query = db.kysely
    .selectFrom('openstack_images')
    .selectAll()
    .where('cloud', '=', where.cloud)
    .where('instance_id', '=', where.instanceId);
  if (where.opOccId) query = query.where('op_occ_id', '=', where.opOccId);
  const mine = await query.execute();
  const deleted: string[] = [];
  for (const row of mine) {
    const others = await db.kysely
      .selectFrom('openstack_images')
      .select('instance_id')
      .where('cloud', '=', row.cloud)
      .where('image_id', '=', row.image_id)
      .where('instance_id', '!=', row.instance_id)
      .execute();
    if (row.uploaded_by_bosun === 1 && others.length === 0) {
      await client.glance.deleteImage(row.image_id, signal);
      deleted.push(row.image_id);
    }
    await db.kysely
      .deleteFrom('openstack_images')
      .where('cloud', '=', row.cloud)
      .where('image_id', '=', row.image_id)
      .where('instance_id', '=', row.instance_id)
      .execute();
  }
  return deleted;
}
