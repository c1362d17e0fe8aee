/**
 * Bosun applies with force, so an apply would silently take over an object of the same name that
 * is not this instance's: another instance's Deployment in a shared namespace, or an object the
 * operator made by hand — and this instance's terminate would later delete it. An existing object
 * is applied again only when it carries this instance's label, or when Helm made it for this
 * instance's release (its workloads get Bosun's labels after the install); any other is refused.
 */
import { InfraError } from '../../contract.ts';
import type { KubeClient } from './client/client.ts';
import { releaseName } from './helm/request.ts';
import type { ManifestObject } from './manifests/objects.ts';
import { LABELS } from './names.ts';

/** The annotations Helm 3 puts on every object of a release. */
const HELM_RELEASE = 'meta.helm.sh/release-name';
const HELM_NAMESPACE = 'meta.helm.sh/release-namespace';

export async function refuseForeignObject(
  client: KubeClient,
  object: ManifestObject,
  namespace: string | undefined,
  instanceId: string,
  signal: AbortSignal,
): Promise<void> {
  const found = await client.get(object.info, object.name, namespace, signal);
  if (!found) return;
  const owner = found.metadata.labels?.[LABELS.instance];
  if (owner === instanceId) return;
  const annotations = found.metadata.annotations ?? {};
  const ofRelease =
    annotations[HELM_RELEASE] === releaseName(instanceId) &&
    (namespace === undefined || annotations[HELM_NAMESPACE] === namespace);
  if (!owner && ofRelease) return;
  const where = `${object.info.kind} ${object.name}${namespace ? ` in namespace ${namespace}` : ''}`;
  throw new InfraError(
    'INVALID_REQUEST',
    owner
      ? `${where} belongs to VNF instance ${owner}: give this instance a namespace of its own (additionalParams.namespace)`
      : `${where} exists and was not made by Bosun: Bosun does not take over (and would later delete) objects it did not make; remove it or choose another namespace (additionalParams.namespace)`,
    {
      kind: object.info.kind,
      name: object.name,
      ...(namespace ? { namespace } : {}),
      ...(owner ? { owner } : {}),
    },
  );
}
