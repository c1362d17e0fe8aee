/**
 * INTERIM: a minimal Heat template generated from the VNFD, until the templates folder
 * (templates/buildStack: BaseHOT with StandardUserData, and generated HOT) replaces it; then
 * this file goes. Same shape as that one (per-VNFC layout): the top template holds each internal
 * VL (OS::Neutron::Net + Subnet) and one resource `<VDU>-<vnfcId>` per VNFC of the nested
 * template `<VDU>.yaml`, which holds the server `<VDU>` and a port `<CP>` per VduCp (on its
 * internal VL, or the network of the external VL that lists the CP). No volumes.
 */
import type { Flavour } from '../../../vnfd/model/vnfd.ts';
import type { ExtVirtualLinkData } from '../../contract.ts';

/** One VNFC as the stack must hold it. */
export interface InterimVnfc {
  id: string;
  vduId: string;
  zone?: string;
  flavour: string;
  image: string;
  cps: string[];
}

export interface InterimDesign {
  flavour: Flavour;
  vnfcs: InterimVnfc[];
  virtualLinks: string[];
  extVirtualLinks: readonly ExtVirtualLinkData[];
}

export interface InterimBuild {
  template: Record<string, unknown>;
  files: Record<string, string>;
  /** Top-level resource name → the VNFC ids it holds. */
  resources: Record<string, string[]>;
}

const VERSION = '2018-08-31';

export const vnfcResourceName = (vduId: string, vnfcId: string) => `${vduId}-${vnfcId}`;

function extNetworkOf(links: readonly ExtVirtualLinkData[], cpdId: string): string | undefined {
  const link = links.find((l) =>
    ((l.extCps as { cpdId?: string }[] | undefined) ?? []).some((c) => c.cpdId === cpdId),
  );
  return link?.resourceId;
}

function nestedTemplate(vduId: string, cps: string[]): Record<string, unknown> {
  const parameters: Record<string, unknown> = {
    name: { type: 'string' },
    zone: { type: 'string', default: '' },
    flavor: { type: 'string' },
    image: { type: 'string' },
    vnfc: { type: 'string' },
    instance: { type: 'string' },
  };
  const resources: Record<string, unknown> = {};
  for (const cp of cps) {
    parameters[`net_${cp}`] = { type: 'string' };
    resources[cp] = { type: 'OS::Neutron::Port', properties: { network: { get_param: `net_${cp}` } } };
  }
  resources[vduId] = {
    type: 'OS::Nova::Server',
    properties: {
      name: { get_param: 'name' },
      flavor: { get_param: 'flavor' },
      image: { get_param: 'image' },
      availability_zone: { if: ['has_zone', { get_param: 'zone' }, null] },
      networks: cps.length
        ? cps.map((cp) => ({ port: { get_resource: cp } }))
        : [{ allocate_network: 'none' }],
      metadata: { bosun_instance: { get_param: 'instance' }, bosun_vnfc: { get_param: 'vnfc' } },
    },
  };
  return {
    heat_template_version: VERSION,
    parameters,
    conditions: { has_zone: { not: { equals: [{ get_param: 'zone' }, ''] } } },
    resources,
  };
}

export function buildInterimStack(design: InterimDesign, instanceId: string): InterimBuild {
  const resources: Record<string, unknown> = {};
  const subnets: string[] = [];
  design.virtualLinks.forEach((vl, i) => {
    resources[vl] = { type: 'OS::Neutron::Net', properties: { name: `${vl}-${instanceId.slice(0, 8)}` } };
    resources[`${vl}_subnet`] = {
      type: 'OS::Neutron::Subnet',
      properties: {
        network: { get_resource: vl },
        cidr: `10.${200 + Math.floor(i / 256)}.${i % 256}.0/24`,
        enable_dhcp: false,
      },
    };
    subnets.push(`${vl}_subnet`);
  });
  const files: Record<string, string> = {};
  const laid: Record<string, string[]> = {};
  // Oldest first, so the template reads in creation order.
  for (const vnfc of [...design.vnfcs].reverse()) {
    const file = `${vnfc.vduId}.yaml`;
    files[file] ??= JSON.stringify(nestedTemplate(vnfc.vduId, vnfc.cps));
    const properties: Record<string, unknown> = {
      name: vnfcResourceName(vnfc.vduId, vnfc.id.slice(0, 8)),
      zone: vnfc.zone ?? '',
      flavor: vnfc.flavour,
      image: vnfc.image,
      vnfc: vnfc.id,
      instance: instanceId,
    };
    for (const cp of vnfc.cps) {
      const internal = design.flavour.vduCps.find((c) => c.id === cp)?.virtualLink;
      const network = internal ? { get_resource: internal } : extNetworkOf(design.extVirtualLinks, cp);
      if (network === undefined) throw new Error(`CP ${cp} is on no internal VL and no external VL lists it`);
      properties[`net_${cp}`] = network;
    }
    const name = vnfcResourceName(vnfc.vduId, vnfc.id);
    resources[name] = { type: file, properties, ...(subnets.length ? { depends_on: subnets } : {}) };
    laid[name] = [vnfc.id];
  }
  return {
    template: { heat_template_version: VERSION, parameters: {}, resources },
    files,
    resources: laid,
  };
}
