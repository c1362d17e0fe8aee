/**
 * VNF package lifecycle outside onboarding: create, modify (PATCH), delete, usage state.
 * Rules come from states.ts; every change bumps `version` (the ETag input) in one statement.
 */
import { randomUUID } from 'node:crypto';
import type { PackageFacts } from '../notify/package-filter.ts';
import {
  emitPackageNotification,
  packageDeleted,
  packageOperationalStateChanged,
} from '../notify/package-notifications.ts';
import { ownValue, setOwn } from '../own-properties.ts';
import { ApiError } from '../sol/problem.ts';
import { type BlobStore, BlobStoreUnavailableError } from '../store/blobs/blob-store.ts';
import type { Database } from '../store/db/database.ts';
import { type Executor, inTransaction } from '../store/db/transaction.ts';
import { findPackage, nowIso, type PackageRecord, packageBlobKey } from './package-record.ts';
import { DELETABLE, type OperationalState, refusalOf } from './states.ts';

export async function createPackage(
  db: Executor,
  projectId: string,
  userDefinedData: Record<string, unknown> = {},
): Promise<PackageRecord> {
  const now = nowIso();
  const id = randomUUID();
  await db
    .insertInto('vnf_packages')
    .values({
      id,
      project_id: projectId,
      onboarding_state: 'CREATED',
      operational_state: 'DISABLED',
      usage_state: 'NOT_IN_USE',
      user_defined_data: JSON.stringify(userDefinedData),
      attempts: 0,
      created_at: now,
      updated_at: now,
      version: 1,
    })
    .execute();
  return (await findPackage(db, id)) as PackageRecord;
}

export interface PackageModifications {
  operationalState?: OperationalState;
  /** Merge patch: a null value deletes the key. */
  userDefinedData?: Record<string, unknown>;
}

/** Applies a PATCH; returns the modifications actually made (VnfPkgInfoModifications). */
export async function modifyPackage(
  db: Database,
  current: PackageRecord,
  patch: PackageModifications,
): Promise<PackageModifications> {
  const changes: PackageModifications = {};
  if (patch.operationalState !== undefined) {
    const refusal = refusalOf('changeOperationalState', current.onboardingState, current.id);
    if (refusal) throw new ApiError(409, refusal);
    if (patch.operationalState === current.operationalState) {
      throw new ApiError(409, `VNF package ${current.id} is already ${current.operationalState}.`);
    }
    changes.operationalState = patch.operationalState;
  }
  const data = { ...current.userDefinedData };
  if (patch.userDefinedData) {
    const changed: Record<string, unknown> = {};
    // Keys are data (`__proto__` and `constructor` included): own properties only.
    for (const [key, value] of Object.entries(patch.userDefinedData)) {
      if (value === null) {
        if (Object.hasOwn(data, key)) {
          delete data[key];
          setOwn(changed, key, null);
        }
      } else if (JSON.stringify(ownValue(data, key)) !== JSON.stringify(value)) {
        setOwn(data, key, value);
        setOwn(changed, key, value);
      }
    }
    if (Object.keys(changed).length) changes.userDefinedData = changed;
  }
  if (changes.operationalState === undefined && changes.userDefinedData === undefined) {
    throw new ApiError(409, `Nothing to update: VNF package ${current.id} already has these values.`);
  }
  // The update and its notification commit together (outbox).
  await inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable('vnf_packages')
      .set((eb) => ({
        operational_state: changes.operationalState ?? current.operationalState,
        user_defined_data: JSON.stringify(data),
        updated_at: nowIso(),
        version: eb('version', '+', 1),
      }))
      .where('id', '=', current.id)
      .where('version', '=', current.version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) {
      throw new ApiError(
        412,
        `VNF package ${current.id} changed while it was being modified; read it again and retry.`,
      );
    }
    if (changes.operationalState !== undefined) {
      await emitPackageNotification(
        trx,
        current.projectId,
        packageOperationalStateChanged({ ...factsOf(current), operationalState: changes.operationalState }),
      );
    }
  });
  return changes;
}

/** What package notifications (and their filters) need to know about a package. */
function factsOf(record: PackageRecord): PackageFacts {
  return {
    vnfPkgId: record.id,
    vnfdId: record.vnfdId,
    vnfProvider: record.vnfProvider,
    vnfProductName: record.vnfProductName,
    vnfSoftwareVersion: record.vnfSoftwareVersion,
    vnfdVersion: record.vnfdVersion,
    operationalState: record.operationalState,
    usageState: record.usageState,
  };
}

/** DELETE: only DISABLED and NOT_IN_USE packages; the blob goes with the row. */
export async function deletePackage(db: Database, blobs: BlobStore, current: PackageRecord): Promise<void> {
  if (
    current.operationalState !== DELETABLE.operationalState ||
    current.usageState !== DELETABLE.usageState
  ) {
    throw new ApiError(
      409,
      `VNF package ${current.id} is ${current.operationalState} and ${current.usageState}: only a DISABLED package that is NOT_IN_USE can be deleted.`,
    );
  }
  await inTransaction(db, async (trx) => {
    const result = await trx
      .deleteFrom('vnf_packages')
      .where('id', '=', current.id)
      .where('operational_state', '=', DELETABLE.operationalState)
      .where('usage_state', '=', DELETABLE.usageState)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) {
      throw new ApiError(409, `VNF package ${current.id} changed while it was being deleted; read it again.`);
    }
    await emitPackageNotification(trx, current.projectId, packageDeleted(factsOf(current)));
  });
  // The package is gone: a blob the store cannot delete now is one no record owns, which the
  // janitor's package blob sweep removes once the store is back. The deletion succeeded.
  await blobs.delete(packageBlobKey(current.id)).catch((err: unknown) => {
    if (!(err instanceof BlobStoreUnavailableError)) throw err;
  });
}

/**
 * For LCM: mark a package (by id, or by vnfdId within a project) as used or not. Runs in the
 * caller's transaction so it commits with the instance change. Returns false when not found.
 */
export async function setUsageState(
  trx: Executor,
  target: string | { project: string; vnfdId: string },
  inUse: boolean,
): Promise<boolean> {
  let query = trx.updateTable('vnf_packages').set((eb) => ({
    usage_state: inUse ? 'IN_USE' : 'NOT_IN_USE',
    updated_at: nowIso(),
    version: eb('version', '+', 1),
  }));
  query =
    typeof target === 'string'
      ? query.where('id', '=', target)
      : query.where('project_id', '=', target.project).where('vnfd_id', '=', target.vnfdId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
