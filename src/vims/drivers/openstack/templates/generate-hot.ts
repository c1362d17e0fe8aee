/**
 * A Heat template generated from the VNFD, for packages without a BaseHOT. It has the shape of a
 * StandardUserData BaseHOT (a top template with one resource per VDU of a nested template
 * `<VDU>.yaml`, values read from the `nfv` parameter), so buildStack lays it out per VNFC like a
 * package's own: each VNFC is its own nested stack `<VDU>-<vnfcId>` with its zone, flavour and
 * image. That layout, rather than one AutoScalingGroup or ResourceGroup per scalable VDU, because
 * the grant places each VNFC in its own zone (and zone reselection moves one VNFC), a scale in
 * removes the VNFCs the engine names rather than the group's choice, and a VNFC's resources keep
 * their name (its id) across updates and heals.
 *
 * The top template holds the internal VLs (OS::Neutron::Net + Subnet) and a server group per
 * NFVI_NODE affinity or anti-affinity rule (the grant's policy: soft-… with best effort); each nested
 * template a server, a port per VduCp on an internal, externally managed or requested external
 * VL, and a volume per storage (boot volume when the VDU has no image of its own). Clouds without
 * Cinder (mini-openstack) can only run VNFDs without storage.
 */
import type { Flavour, Vdu, VirtualLink } from '../../../../vnfd/model/vnfd.ts';
import type { ExtVirtualLinkData, ServerGroup } from '../../../contract.ts';
import type { HotSource } from './design.ts';
import { extNetworkOf } from './ext-cp-values.ts';
import { isMapping } from './hot-yaml.ts';

export const GENERATED_ORIGIN = 'generated from the VNFD';
const VERSION = '2018-08-31';
const GIB = 2 ** 30;

export interface GenerateOptions {
  extVirtualLinks: readonly ExtVirtualLinkData[];
  extManagedVirtualLinks: readonly Record<string, unknown>[];
  /** The grant's server groups: their policy (soft- with best effort) by rule name. */
  serverGroups: readonly ServerGroup[];
}

/** Whether the VNFD gives the node an image (an artifact, or only the name the VIM has it under). */
const hasImage = (node: { swImage?: string; swImageName?: string }) =>
  node.swImage !== undefined || node.swImageName !== undefined;

const subnetOf = (vl: string) => `${vl}_subnet`;

const nfv = (section: string, key: string, leaf: string) => ({ get_param: ['nfv', section, key, leaf] });

/** The VL's first L3 protocol data (cidr, ip_version), when the VNFD gives one. */
function l3Of(vl: VirtualLink): { cidr?: string; ipVersion: 4 | 6 } {
  const data = Array.isArray(vl.vlProfile?.virtual_link_protocol_data)
    ? vl.vlProfile.virtual_link_protocol_data
    : [];
  for (const d of data) {
    const l3 = isMapping(d) && isMapping(d.l3_protocol_data) ? d.l3_protocol_data : undefined;
    if (l3)
      return {
        cidr: typeof l3.cidr === 'string' ? l3.cidr : undefined,
        ipVersion: l3.ip_version === 'ipv6' ? 6 : 4,
      };
  }
  return { ipVersion: 4 };
}

function networks(flavour: Flavour): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  flavour.virtualLinks.forEach((vl, i) => {
    const l3 = l3Of(vl);
    out[vl.id] = { type: 'OS::Neutron::Net' };
    out[subnetOf(vl.id)] = {
      type: 'OS::Neutron::Subnet',
      properties: {
        network: { get_resource: vl.id },
        ip_version: l3.ipVersion,
        // Internal VLs are isolated networks: the same range on two of them does not clash.
        cidr:
          l3.cidr ??
          (l3.ipVersion === 6 ? `fd00:0:0:${(i + 1).toString(16)}::/64` : `192.168.${(i + 1) % 256}.0/24`),
      },
    };
  });
  return out;
}

/**
 * The server group of each VDU under an NFVI_NODE rule (the first such rule of a VDU wins: a
 * server has one group), with the grant's policy for the rule, else the rule's own.
 */
function serverGroups(
  flavour: Flavour,
  granted: readonly ServerGroup[],
): { resources: Record<string, unknown>; of: Map<string, string> } {
  const resources: Record<string, unknown> = {};
  const of = new Map<string, string>();
  for (const rule of flavour.placementRules) {
    if (rule.scope.toLowerCase() !== 'nfvi_node') continue;
    const vdus = rule.members.filter((m) => flavour.vdus.some((v) => v.id === m) && !of.has(m));
    if (!vdus.length) continue;
    const policy = granted.find((g) => g.id === rule.name)?.policy ?? rule.kind;
    resources[rule.name] = { type: 'OS::Nova::ServerGroup', properties: { policies: [policy] } };
    for (const vdu of vdus) of.set(vdu, rule.name);
  }
  return { resources, of };
}

type CpNet = { kind: 'internal'; vl: string } | { kind: 'managed'; vl: string } | { kind: 'external' };

/** Where each VduCp of the VDU gets its port; CPs on no link of this request get none. */
function cpNetworks(flavour: Flavour, vdu: Vdu, options: GenerateOptions): Map<string, CpNet> {
  const managed = new Set(options.extManagedVirtualLinks.map((l) => l.vnfVirtualLinkDescId));
  const out = new Map<string, CpNet>();
  const cps = flavour.vduCps
    .filter((c) => c.vdu === vdu.id)
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || a.id.localeCompare(b.id));
  for (const cp of cps) {
    if (cp.virtualLink && flavour.virtualLinks.some((vl) => vl.id === cp.virtualLink)) {
      out.set(cp.id, { kind: managed.has(cp.virtualLink) ? 'managed' : 'internal', vl: cp.virtualLink });
    } else if (extNetworkOf(options.extVirtualLinks, cp.id) !== undefined) {
      out.set(cp.id, { kind: 'external' });
    }
  }
  return out;
}

function nestedTemplate(flavour: Flavour, vdu: Vdu, cps: Map<string, CpNet>, group: string | undefined) {
  const storages = vdu.virtualStorages
    .map((id) => flavour.storages.find((s) => s.id === id))
    .filter((s) => s !== undefined && s.kind === 'block');
  const bootVolume = hasImage(vdu) ? undefined : storages.find((s) => s && hasImage(s));
  const parameters: Record<string, unknown> = {
    flavor: { type: 'string' },
    zone: { type: 'string', default: '' },
    name: { type: 'string' },
    vnfc: { type: 'string' },
  };
  if (!bootVolume) parameters.image = { type: 'string' };
  if (group) parameters.server_group = { type: 'string' };
  const conditions: Record<string, unknown> = { has_zone: { not: { equals: [{ get_param: 'zone' }, ''] } } };
  const resources: Record<string, unknown> = {};
  for (const [cp, net] of cps) {
    parameters[`${cp}-network`] = { type: 'string' };
    const properties: Record<string, unknown> = { network: { get_param: `${cp}-network` } };
    if (net.kind === 'external') {
      parameters[`${cp}-fixed_ips`] = { type: 'json', default: [] };
      conditions[`${cp}-has_fixed_ips`] = { not: { equals: [{ get_param: `${cp}-fixed_ips` }, []] } };
      properties.fixed_ips = { if: [`${cp}-has_fixed_ips`, { get_param: `${cp}-fixed_ips` }, null] };
    }
    resources[cp] = { type: 'OS::Neutron::Port', properties };
  }
  for (const s of storages) {
    if (!s) continue;
    const properties: Record<string, unknown> = {
      size: Math.max(1, Math.ceil((s.sizeOfStorage ?? 0) / GIB)),
    };
    if (hasImage(s)) {
      parameters[`${s.id}-image`] = { type: 'string' };
      properties.image = { get_param: `${s.id}-image` };
    }
    resources[s.id] = { type: 'OS::Cinder::Volume', properties };
    if (s !== bootVolume) {
      resources[`${s.id}-attachment`] = {
        type: 'OS::Cinder::VolumeAttachment',
        properties: { instance_uuid: { get_resource: vdu.id }, volume_id: { get_resource: s.id } },
      };
    }
  }
  const server: Record<string, unknown> = {
    flavor: { get_param: 'flavor' },
    name: { get_param: 'name' },
    availability_zone: { if: ['has_zone', { get_param: 'zone' }, null] },
    // Nova keeps it with the server: a server is traced to its VNFC whatever the stack says.
    metadata: { bosun_vnfc: { get_param: 'vnfc' }, bosun_vdu: vdu.id },
    networks: cps.size
      ? [...cps.keys()].map((cp) => ({ port: { get_resource: cp } }))
      : [{ allocate_network: 'none' }],
  };
  if (bootVolume)
    server.block_device_mapping_v2 = [{ volume_id: { get_resource: bootVolume.id }, boot_index: 0 }];
  else server.image = { get_param: 'image' };
  if (group) server.scheduler_hints = { group: { get_param: 'server_group' } };
  resources[vdu.id] = { type: 'OS::Nova::Server', properties: server };
  return {
    heat_template_version: VERSION,
    description: `VDU ${vdu.id}: one VNFC (generated by Bosun from the VNFD)`,
    parameters,
    conditions,
    resources,
    outputs: { server: { value: { get_resource: vdu.id } } },
  };
}

function vduResource(
  vdu: Vdu,
  nested: ReturnType<typeof nestedTemplate>,
  cps: Map<string, CpNet>,
  group?: string,
) {
  const properties: Record<string, unknown> = {
    flavor: nfv('VDU', vdu.id, 'computeFlavourId'),
    zone: nfv('VDU', vdu.id, 'locationConstraints'),
    name: nfv('VDU', vdu.id, 'name'),
    vnfc: nfv('VDU', vdu.id, 'vnfcId'),
  };
  if ('image' in nested.parameters) properties.image = nfv('VDU', vdu.id, 'vcImageId');
  for (const key of Object.keys(nested.parameters)) {
    if (key.endsWith('-image')) properties[key] = nfv('VDU', key.slice(0, -'-image'.length), 'vcImageId');
  }
  for (const [cp, net] of cps) {
    properties[`${cp}-network`] =
      net.kind === 'external' ? nfv('CP', cp, 'network') : { get_resource: net.vl };
    if (net.kind === 'external') properties[`${cp}-fixed_ips`] = nfv('CP', cp, 'fixed_ips');
  }
  if (group) properties.server_group = { get_resource: group };
  // Its ports get their addresses from the subnets: created after them and deleted before them.
  const subnets = [
    ...new Set([...cps.values()].flatMap((n) => (n.kind === 'internal' ? [subnetOf(n.vl)] : []))),
  ];
  return { type: `${vdu.id}.yaml`, properties, ...(subnets.length ? { depends_on: subnets } : {}) };
}

export function generateHot(flavour: Flavour, options: GenerateOptions): HotSource {
  const groups = serverGroups(flavour, options.serverGroups);
  const resources: Record<string, unknown> = { ...networks(flavour), ...groups.resources };
  const files: Record<string, string> = {};
  for (const vdu of flavour.vdus) {
    const cps = cpNetworks(flavour, vdu, options);
    const group = groups.of.get(vdu.id);
    const nested = nestedTemplate(flavour, vdu, cps, group);
    files[`${vdu.id}.yaml`] = JSON.stringify(nested);
    resources[vdu.id] = vduResource(vdu, nested, cps, group);
  }
  return {
    origin: GENERATED_ORIGIN,
    template: {
      heat_template_version: VERSION,
      description: `VNF flavour ${flavour.flavourId} (generated by Bosun from the VNFD)`,
      parameters: { nfv: { type: 'json' } },
      resources,
    },
    files,
  };
}
