/**
 * The instance an operation leaves behind (COMPLETED, or FAILED with its infra step done), from
 * what its steps recorded.
 */
import { mergeVims } from '../vims/request-info.ts';
import { keepVnfcMetadata } from './hook-changes.ts';
import type { OpOccRecord, VnfInstanceRecord } from './model.ts';
import type { LcmPackage, OperationDef } from './operation-def.ts';
import type { Progress } from './progress.ts';

export function appliedInstance(
  def: OperationDef,
  instance: VnfInstanceRecord,
  opOcc: OpOccRecord,
  progress: Progress,
  target: LcmPackage,
) {
  const grantOut = progress.outputs.grant;
  const vimConnectionInfo =
    grantOut?.vim.stored ?? mergeVims(instance.vimConnectionInfo, progress.outputs.accept?.vimConnectionInfo);
  const applied = def.apply({
    instance,
    params: opOcc.operationParams,
    planned: grantOut?.planned ?? { delta: {}, driverPlan: undefined },
    result: progress.outputs.infra,
    target,
    vimConnectionInfo,
  });
  return { ...applied, instance: keepVnfcMetadata(instance, applied.instance) };
}
