/**
 * The Heat template, files and parameters of a stack state: the package's BaseHOT for the
 * flavour when it has one (read from the package's blob, cached: packages never change), else a
 * template generated from the VNFD; laid out per VNFC and filled by templates/buildStack.
 */
import { packageBlobKey } from '../../../packages/package-record.ts';
import { openZipPackage } from '../../../vnfd/csar/zip-reader.ts';
import type { Flavour } from '../../../vnfd/model/vnfd.ts';
import type { OperationContext } from '../../contract.ts';
import { InfraError } from '../../contract.ts';
import type { StackContent } from './apply-stack.ts';
import type { OpenStackDeps } from './deps.ts';
import type { StackState } from './stack-state.ts';
import { readBaseHot } from './templates/base-hot.ts';
import { buildStack } from './templates/build-stack.ts';
import type { HotSource, StackVnfc } from './templates/design.ts';
import { generateHot } from './templates/generate-hot.ts';
import { STANDARD_USER_DATA } from './templates/layout.ts';

const CACHED = 32;
const baseHots = new Map<string, Promise<HotSource | undefined>>();

/**
 * The flavour's BaseHOT in the package, or undefined when it has none. A driver made without a
 * blob store (tests of the driver alone) reads no package and generates every template.
 */
function packageBaseHot(deps: OpenStackDeps, packageId: string | undefined, flavour: Flavour) {
  if (!flavour.baseHot.main || !deps.blobs) return Promise.resolve(undefined);
  if (!packageId) {
    throw new InfraError(
      'INVALID_REQUEST',
      `Flavour ${flavour.flavourId} has a BaseHOT (${flavour.baseHot.main}) but its package cannot be read here.`,
    );
  }
  const blobs = deps.blobs;
  const key = `${packageId}/${flavour.flavourId}`;
  let found = baseHots.get(key);
  if (!found) {
    found = (async () => {
      const opened = await openZipPackage(await blobs.localFile(packageBlobKey(packageId)));
      if (!opened.files) throw new InfraError('NOT_FOUND', `The VNF package ${packageId} cannot be read.`);
      try {
        return await readBaseHot(opened.files, flavour);
      } finally {
        await opened.files.close();
      }
    })();
    found.catch(() => baseHots.delete(key));
    if (baseHots.size >= CACHED) baseHots.delete(baseHots.keys().next().value as string);
    baseHots.set(key, found);
  }
  return found;
}

const designVnfc = (v: StackState['vnfcs'][number]): StackVnfc => ({
  id: v.id,
  vduId: v.vduId,
  ...(v.zone ? { zone: v.zone } : {}),
  flavour: v.flavour,
  images: { [v.vduId]: v.image },
  cps: v.cps,
  storages: v.storages,
});

export async function stackContent(
  deps: OpenStackDeps,
  ctx: OperationContext,
  flavour: Flavour,
  state: Omit<StackState, 'resources'>,
  packageId: string | undefined,
): Promise<StackContent & { resources: Record<string, string[]> }> {
  const source =
    (await packageBaseHot(deps, packageId, flavour)) ??
    generateHot(flavour, {
      extVirtualLinks: state.extVirtualLinks,
      extManagedVirtualLinks: state.extManagedVirtualLinks,
      serverGroups: ctx.grant.serverGroups,
    });
  const built = buildStack({
    flavour,
    source,
    vnfcs: state.vnfcs.map(designVnfc),
    extVirtualLinks: state.extVirtualLinks,
    extManagedVirtualLinks: state.extManagedVirtualLinks,
    // Tacker's choice of UserData class; otherwise the template's shape decides.
    ...(ctx.additionalParams?.['lcm-operation-user-data-class'] === STANDARD_USER_DATA
      ? { layout: 'per-vnfc' as const }
      : {}),
  });
  afterSubnets(built.template, Object.keys(built.resources));
  return {
    template: built.template,
    files: built.files,
    parameters: built.parameters,
    resources: built.resources,
  };
}

/**
 * A VNFC's ports take their addresses from the subnets of the top template (a BaseHOT's nested
 * templates cannot say so): each VNFC resource waits for every subnet, so a port never comes up
 * without its address and a subnet is never deleted while ports hold addresses in it.
 */
function afterSubnets(template: Record<string, unknown>, vnfcResources: string[]): void {
  const resources = template.resources as Record<string, Record<string, unknown>>;
  const subnets = Object.keys(resources).filter((name) => resources[name]?.type === 'OS::Neutron::Subnet');
  if (!subnets.length) return;
  for (const name of vnfcResources) {
    const resource = resources[name];
    if (!resource) continue;
    const before = resource.depends_on;
    const list = Array.isArray(before) ? before : typeof before === 'string' ? [before] : [];
    resource.depends_on = [...new Set([...list, ...subnets])];
  }
}
