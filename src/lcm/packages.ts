/**
 * The VNF packages LCM works from: an instance's package with its VNFD model, the package of a
 * vnfdId in a project, and the package's usageState, which follows whether any VNF instance (of
 * any API major) uses it. VNFD models never change once onboarded: parsed ones are cached.
 */
import { setUsageState } from '../packages/service.ts';
import type { Executor } from '../store/db/transaction.ts';
import type { Vnfd } from '../vnfd/model/vnfd.ts';
import type { LcmPackage } from './operation-def.ts';
import { LCM_STORES } from './store.ts';

const CACHE_SIZE = 64;
const models = new Map<string, Vnfd>();

function modelOf(id: string, text: string | null): Vnfd | undefined {
  const cached = models.get(id);
  if (cached) return cached;
  if (!text) return undefined;
  const model = JSON.parse(text) as Vnfd;
  if (models.size >= CACHE_SIZE) models.delete(models.keys().next().value as string);
  models.set(id, model);
  return model;
}

const COLUMNS = [
  'id',
  'project_id',
  'vnfd_id',
  'vnf_provider',
  'vnf_product_name',
  'vnf_software_version',
  'vnfd_version',
  'onboarding_state',
  'operational_state',
] as const;

type Row = { [K in (typeof COLUMNS)[number]]: string | null };

function toPackage(row: Row, vnfd: Vnfd): LcmPackage {
  return {
    id: row.id as string,
    vnfdId: row.vnfd_id ?? '',
    vnfProvider: row.vnf_provider ?? '',
    vnfProductName: row.vnf_product_name ?? '',
    vnfSoftwareVersion: row.vnf_software_version ?? '',
    vnfdVersion: row.vnfd_version ?? '',
    onboardingState: row.onboarding_state ?? '',
    operationalState: row.operational_state ?? '',
    vnfd,
  };
}

async function load(
  db: Executor,
  where: { id: string } | { project: string; vnfdId: string },
): Promise<LcmPackage | undefined> {
  let query = db.selectFrom('vnf_packages').select(COLUMNS);
  query =
    'id' in where
      ? query.where('id', '=', where.id)
      : query
          .where('project_id', '=', where.project)
          .where('vnfd_id', '=', where.vnfdId)
          .where('onboarding_state', '=', 'ONBOARDED');
  const row = (await query.executeTakeFirst()) as Row | undefined;
  if (!row?.id) return undefined;
  let vnfd = models.get(row.id);
  if (!vnfd) {
    const m = await db
      .selectFrom('vnf_packages')
      .select('vnfd_model')
      .where('id', '=', row.id)
      .executeTakeFirst();
    vnfd = modelOf(row.id, m?.vnfd_model ?? null);
  }
  return vnfd ? toPackage(row, vnfd) : undefined;
}

export const loadLcmPackage = (db: Executor, id: string) => load(db, { id });

/** The ONBOARDED package with `vnfdId` in `project` (vnfdIds are unique per project). */
export const packageByVnfdId = (db: Executor, project: string, vnfdId: string) =>
  load(db, { project, vnfdId });

/** Sets the package's usageState from whether any instance of any major uses it. */
export async function refreshUsage(trx: Executor, pkgId: string): Promise<void> {
  for (const store of LCM_STORES) {
    if (await store.packageInUse(trx, pkgId)) {
      await setUsageState(trx, pkgId, true);
      return;
    }
  }
  await setUsageState(trx, pkgId, false);
}
