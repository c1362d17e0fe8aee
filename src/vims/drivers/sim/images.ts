/**
 * Images of the simulated VIM (Glance). The grant names the image of each software image
 * (vnfdSoftwareImageId → VIM image id); without one, the image is looked up by the VNFD's
 * sw_image_data name and registered when missing, tagged with the instance — what Tacker's local
 * NFVO does with Glance. Images an instance registered go away with it at terminate.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../../store/db/database.ts';
import type { SimImagesTable } from '../../../store/db/tables.ts';
import type { Executor } from '../../../store/db/transaction.ts';
import { inTransaction } from '../../../store/db/transaction.ts';
import type { SoftwareImage } from '../../../vnfd/model/vnfd.ts';
import { InfraError } from '../../contract.ts';
import type { Journal } from './journal.ts';

export async function findImage(db: Executor, idOrName: string): Promise<SimImagesTable | undefined> {
  const byId = await db.selectFrom('sim_images').selectAll().where('id', '=', idOrName).executeTakeFirst();
  if (byId) return byId;
  return db
    .selectFrom('sim_images')
    .selectAll()
    .where('name', '=', idOrName)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
}

const imageRow = (sw: SoftwareImage, instanceId: string | null, opOccId: string | null): SimImagesTable => ({
  id: randomUUID(),
  instance_id: instanceId,
  op_occ_id: opOccId,
  created_at: new Date().toISOString(),
  name: sw.name,
  checksum: sw.checksum ? `${sw.checksum.algorithm}:${sw.checksum.hash}` : null,
  size: sw.size,
  min_disk_gb: Math.ceil(sw.minDisk / 2 ** 30),
  min_ram_mb: Math.ceil(sw.minRam / 2 ** 20),
  disk_format: sw.diskFormat,
  container_format: sw.containerFormat,
});

/**
 * The image id for a software image: the granted one (which must exist), else the VNFD's image
 * by name, registered (and journaled) when missing. Null when there is nothing to boot from.
 */
export async function imageFor(
  journal: Journal,
  granted: string | undefined,
  sw: SoftwareImage | undefined,
  opOccId: string,
  instanceId: string,
): Promise<string | null> {
  if (granted) {
    const image = await findImage(journal.trx, granted);
    if (!image) throw new InfraError('NOT_FOUND', `Image ${granted} could not be found.`);
    return image.id;
  }
  if (!sw) return null;
  const existing = await findImage(journal.trx, sw.name);
  if (existing) return existing.id;
  const row = imageRow(sw, instanceId, opOccId);
  await journal.insert('sim_images', row);
  return row.id;
}

/**
 * Registers the software images of a VNFD for an instance (what a local NFVO does while
 * granting) and returns vnfdSoftwareImageId → image id, for the grant's vimAssets. Images
 * tagged with `opOccId` go away when that op occ is rolled back; every image registered for the
 * instance goes away at its terminate.
 */
export async function registerSoftwareImages(
  db: Database,
  instanceId: string,
  images: readonly SoftwareImage[],
  opOccId?: string,
): Promise<Record<string, string>> {
  return inTransaction(db, async (trx) => {
    const out: Record<string, string> = {};
    for (const sw of images) {
      const existing = await findImage(trx, sw.name);
      if (existing) {
        out[sw.id] = existing.id;
        continue;
      }
      const row = imageRow(sw, instanceId, opOccId ?? null);
      await trx.insertInto('sim_images').values(row).execute();
      out[sw.id] = row.id;
    }
    return out;
  });
}
