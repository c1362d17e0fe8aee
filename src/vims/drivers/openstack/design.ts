/**
 * The stack an instantiate asks for: every VNFC of the plan with its zone (the grant's), flavour
 * (the grant's, else the VDU's requested Nova flavour) and image (the grant's, else the package's
 * uploaded to Glance; storage only on a VIM with a volume service), and the instance-level
 * facts, as the state the stack carries and the template that makes it (stack-content.ts: the package's BaseHOT, else generated from the
 * VNFD, laid out one nested stack per VNFC).
 */
import type { Flavour } from '../../../vnfd/model/vnfd.ts';
import { InfraError, type InstantiatePlan, type NewVnfc, type OperationContext } from '../../contract.ts';
import type { StackContent } from './apply-stack.ts';
import type { OpenStackClient } from './client/client.ts';
import { cloudKeyOf, type OpenStackDeps } from './deps.ts';
import { ensureImages } from './images.ts';
import { stackContent } from './stack-content.ts';
import type { StackState, StackVnfcState } from './stack-state.ts';
import { requireVolumeService } from './volume-service.ts';

export function flavourOf(ctx: OperationContext): Flavour {
  const flavour = ctx.vnfd.flavours.find((f) => f.flavourId === ctx.flavourId);
  if (!flavour) throw new InfraError('INVALID_REQUEST', `The VNFD has no flavour ${ctx.flavourId}.`);
  return flavour;
}

/** The zone the grant gives a VNFC (a new one, or one it re-creates: heal), if it names one. */
export function zoneOf(ctx: OperationContext, vnfcId: string): string | undefined {
  const key = ctx.grant.zoneOf[vnfcId];
  return key === undefined ? undefined : ctx.grant.zones.find((z) => z.id === key)?.zoneId;
}

/** The VNFCs as the stack will hold them, uploading the images the grant does not name. */
export async function vnfcStates(
  client: OpenStackClient,
  deps: OpenStackDeps,
  ctx: OperationContext,
  vnfcs: readonly NewVnfc[],
): Promise<StackVnfcState[]> {
  const flavour = flavourOf(ctx);
  await requireVolumeService(client, ctx, vnfcs);
  const vdus = new Set(vnfcs.map((v) => v.vduId));
  const needed = flavour.softwareImages.filter((sw) => vdus.has(sw.id) && !ctx.grant.softwareImages[sw.id]);
  const uploaded = needed.length
    ? await ensureImages(client, deps, {
        cloud: await cloudKeyOf(client, ctx.signal),
        instanceId: ctx.instanceId,
        opOccId: ctx.opOccId,
        packageId: ctx.packageId,
        images: needed,
        signal: ctx.signal,
      })
    : {};
  return vnfcs.map((v) => {
    const vdu = flavour.vdus.find((d) => d.id === v.vduId);
    const image = ctx.grant.softwareImages[v.vduId] ?? uploaded[v.vduId];
    if (!image) {
      throw new InfraError(
        'INVALID_REQUEST',
        `VDU ${v.vduId} has no image to boot: the VNFD gives it no software image and the grant names none.`,
        { vduId: v.vduId },
      );
    }
    const nova =
      ctx.grant.computeFlavours[v.vduId] ?? vdu?.virtualCompute?.requestedAdditionalCapabilityNames[0];
    if (!nova) {
      throw new InfraError(
        'INVALID_REQUEST',
        `VDU ${v.vduId} has no Nova flavour: the grant names none and the VNFD requests none (requested_additional_capabilities).`,
        { vduId: v.vduId },
      );
    }
    const zone = zoneOf(ctx, v.id);
    return {
      id: v.id,
      vduId: v.vduId,
      ...(zone ? { zone } : {}),
      flavour: nova,
      image,
      cps: [...v.cps],
      storages: [...v.storages],
    };
  });
}

export async function instantiateDesign(
  client: OpenStackClient,
  deps: OpenStackDeps,
  ctx: OperationContext,
  plan: InstantiatePlan,
): Promise<{ state: StackState; content: StackContent }> {
  const flavour = flavourOf(ctx);
  const vnfcs = await vnfcStates(client, deps, ctx, plan.vnfcs);
  const facts: Omit<StackState, 'resources'> & { packageId?: string } = {
    opOccId: ctx.opOccId,
    flavourId: ctx.flavourId,
    vnfcs,
    virtualLinks: [...plan.virtualLinks],
    extVirtualLinks: [...plan.extVirtualLinks],
    extManagedVirtualLinks: [...plan.extManagedVirtualLinks],
    scaleStatus: plan.scaleStatus,
    maxScaleLevels: plan.maxScaleLevels,
    ...(plan.localizationLanguage ? { localizationLanguage: plan.localizationLanguage } : {}),
    // The package the templates come from: a later rollback of a package change rebuilds from it.
    ...(ctx.packageId ? { packageId: ctx.packageId } : {}),
  };
  const { resources, ...content } = await stackContent(deps, ctx, flavour, facts, ctx.packageId);
  return { state: { ...facts, resources }, content };
}
