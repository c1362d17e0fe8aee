/**
 * Which flavor a VDU gets: the grant's when it names one; else a flavor named by the VDU's
 * requested additional capabilities (Tacker's `m1.tiny`); else the smallest flavor that fits its
 * virtual_compute (vCPU, memory, local disk). Sizes in bytes are rounded up to MiB / GiB.
 */

import type { SimFlavorsTable } from '../../../store/db/tables.ts';
import type { Executor } from '../../../store/db/transaction.ts';
import type { Vdu } from '../../../vnfd/model/vnfd.ts';
import { InfraError } from '../../contract.ts';

export type FlavorRow = SimFlavorsTable;

export interface ComputeNeeds {
  vcpus: number;
  ramMb: number;
  diskGb: number;
}

export function computeNeeds(vdu: Vdu): ComputeNeeds {
  const vc = vdu.virtualCompute;
  const disk = (vc?.localStorageSizes ?? []).reduce((a, b) => a + b, 0);
  return {
    vcpus: vc?.numVirtualCpu ?? 1,
    ramMb: Math.ceil((vc?.virtualMemSize ?? 0) / 2 ** 20),
    diskGb: Math.ceil(disk / 2 ** 30),
  };
}

export async function findFlavor(db: Executor, idOrName: string): Promise<FlavorRow | undefined> {
  return db
    .selectFrom('sim_flavors')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
    .executeTakeFirst();
}

export async function flavorFor(db: Executor, vdu: Vdu, granted: string | undefined): Promise<FlavorRow> {
  if (granted) {
    const flavor = await findFlavor(db, granted);
    if (!flavor)
      throw new InfraError('NOT_FOUND', `Flavor ${granted} could not be found.`, { vduId: vdu.id });
    return flavor;
  }
  for (const name of vdu.virtualCompute?.requestedAdditionalCapabilityNames ?? []) {
    const flavor = await findFlavor(db, name);
    if (flavor) return flavor;
  }
  const need = computeNeeds(vdu);
  const fit = await db
    .selectFrom('sim_flavors')
    .selectAll()
    .where('vcpus', '>=', need.vcpus)
    .where('ram_mb', '>=', need.ramMb)
    .where('disk_gb', '>=', need.diskGb)
    .orderBy('vcpus')
    .orderBy('ram_mb')
    .orderBy('disk_gb')
    .orderBy('name')
    .executeTakeFirst();
  if (!fit) {
    throw new InfraError(
      'INVALID_REQUEST',
      `No flavor fits VDU ${vdu.id} (${need.vcpus} vCPU, ${need.ramMb} MiB RAM, ${need.diskGb} GiB disk).`,
      { vduId: vdu.id },
    );
  }
  return fit;
}
