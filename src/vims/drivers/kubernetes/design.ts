/**
 * From an operation's request to the objects to apply: the `lcm-kubernetes-def-files` read from
 * the package, checked (manifests/), their namespace, and which workload realises which VDU.
 */
import type { Flavour, Vnfd } from '../../../vnfd/model/vnfd.ts';
import { InfraError, type OperationContext } from '../../contract.ts';
import type { KubernetesDeps } from './deps.ts';
import { type ManifestObject, manifestObjects, targetNamespace } from './manifests/objects.ts';
import { readPackageFiles } from './manifests/package-texts.ts';
import { type VduWorkloads, vduWorkloads } from './workloads.ts';

export const DEF_FILES = 'lcm-kubernetes-def-files';

export interface Design {
  files: string[];
  objects: ManifestObject[];
  namespace: string;
  workloads: VduWorkloads;
}

export function flavourOf(vnfd: Vnfd, flavourId: string): Flavour {
  const flavour = vnfd.flavours.find((f) => f.flavourId === flavourId);
  if (!flavour) throw new InfraError('INVALID_REQUEST', `The VNFD has no flavour ${flavourId}.`);
  return flavour;
}

/** The def files a request names (required: Tacker refuses a Kubernetes instantiate without them). */
export function defFiles(additionalParams: Record<string, unknown> | undefined, operation: string): string[] {
  const files = additionalParams?.[DEF_FILES];
  if (!Array.isArray(files) || files.length === 0 || !files.every((f) => typeof f === 'string' && f !== '')) {
    throw new InfraError(
      'INVALID_REQUEST',
      `${operation} on a Kubernetes VIM needs additionalParams.${DEF_FILES}: the package's manifest files to apply (e.g. ["Files/kubernetes/deployment.yaml"]).`,
    );
  }
  return files as string[];
}

export async function design(
  deps: KubernetesDeps,
  ctx: OperationContext,
  files: string[],
  namespace?: string,
): Promise<Design> {
  const texts = await readPackageFiles(deps, ctx.packageId, ctx.vnfd, files, `additionalParams.${DEF_FILES}`);
  const objects = manifestObjects(texts, deps.config);
  const flavour = flavourOf(ctx.vnfd, ctx.flavourId);
  return {
    files,
    objects,
    namespace: namespace ?? targetNamespace(ctx.additionalParams?.namespace, objects),
    workloads: vduWorkloads(flavour, objects, ctx.additionalParams),
  };
}
