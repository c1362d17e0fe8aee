/**
 * Fills the `nfv` parameter with Tacker's UserData semantics: for each path the template uses,
 * the value of the VNFC (or, per VDU, of its VNFCs) it belongs to — flavour, image, zone and
 * name of a VDU, desired capacity of a VDU's group, network and fixed IPs of a CP. A value the
 * design leaves unset is the stack's previous one (an existing VNFC keeps what it has), else the
 * VNFD's (flavour from requested_additional_capability_name, image by its sw_image_data name).
 */
import type { Flavour } from '../../../../vnfd/model/vnfd.ts';
import type { NfvParameters, StackDesign, StackVnfc } from './design.ts';
import { extFixedIpsOf, extNetworkOf, type FixedIp, managedNetworkOf } from './ext-cp-values.ts';
import { hotError } from './hot-error.ts';
import { isMapping } from './hot-yaml.ts';
import type { NfvPath } from './nfv-paths.ts';

/** What one key of the `nfv` parameter stands for. */
export interface NfvKey {
  /** The VNFD node: a VDU or storage (section VDU), a VduCp (section CP). */
  node: string;
  /** The VNFC of a per-VNFC key; every VNFC of the node's VDU for a per-VDU key (newest first). */
  vnfcs: StackVnfc[];
  /** Other keys of the same node, whose previous values a new VNFC may share (its network). */
  siblings: string[];
}

/** The server name of a VNFC: its VDU's name and its id, so a server is traced to its VNFC. */
export const serverNameOf = (vduName: string, vnfcId: string) => `${vduName}-${vnfcId}`;

function at(root: unknown, path: readonly (string | number)[]): unknown {
  let v = root;
  for (const p of path) {
    if (Array.isArray(v) && typeof p === 'number') v = v[p];
    else if (isMapping(v)) v = v[String(p)];
    else return undefined;
  }
  return v;
}

function put(root: Record<string, unknown>, path: readonly (string | number)[], value: unknown): void {
  let node: Record<string | number, unknown> = root;
  path.forEach((p, i) => {
    if (i === path.length - 1) {
      node[p] = value;
      return;
    }
    const next = path[i + 1];
    if (typeof node[p] !== 'object' || node[p] === null) node[p] = typeof next === 'number' ? [] : {};
    node = node[p] as Record<string | number, unknown>;
  });
}

const vduOfNode = (flavour: Flavour, node: string) =>
  flavour.vdus.find((v) => v.id === node) ?? flavour.vdus.find((v) => v.virtualStorages.includes(node));

/** The VNFD's image for a VDU or storage node: its sw_image_data name. */
function vnfdImage(flavour: Flavour, node: string): string | undefined {
  const found = flavour.vdus.find((v) => v.id === node) ?? flavour.storages.find((s) => s.id === node);
  return flavour.softwareImages.find((i) => i.id === found?.swImage)?.name ?? found?.swImageName;
}

/**
 * The value of the oldest VNFC that has one (the list is newest first). A per-VNFC key has one
 * VNFC; a per-VDU key's value is shared by every member of the VDU's group, so it stays the one
 * the existing VNFCs have: a new VNFC's own grant (zone, flavour, image) would change the group's
 * member definition and make Heat replace every member (Tacker's default UserData likewise changes
 * only `desired_capacity` on scale).
 */
const oldest = <T>(vnfcs: StackVnfc[], pick: (v: StackVnfc) => T | undefined): T | undefined => {
  for (let i = vnfcs.length - 1; i >= 0; i--) {
    const found = pick(vnfcs[i] as StackVnfc);
    if (found !== undefined) return found;
  }
  return undefined;
};

/**
 * The leaf names of Tacker v1 BaseHOTs (`nfv.VDU.VDU1.flavor`, `.image`, `nfv.vdu.VDU1.zone`), as
 * Tacker v1's UserData utilities fill them — the flavour the VNFD requests, the image, the zone —
 * so such a template gets the same values without running its package's Python.
 */
const V1_LEAVES: Readonly<Record<string, string>> = {
  flavor: 'computeFlavourId',
  image: 'vcImageId',
  zone: 'locationConstraints',
};

export class NfvFiller {
  readonly nfv: NfvParameters = {};
  readonly #design: StackDesign;
  readonly #keys: ReadonlyMap<string, NfvKey>;

  constructor(design: StackDesign, keys: ReadonlyMap<string, NfvKey>) {
    this.#design = design;
    this.#keys = keys;
  }

  fill(paths: readonly NfvPath[]): NfvParameters {
    for (const path of paths) {
      const [, section, key, ...leaf] = path as [string, string, string, ...(string | number)[]];
      put(this.nfv, [section, key, ...leaf], this.#value(String(section), String(key), leaf) ?? null);
    }
    return this.nfv;
  }

  #previous(section: string, key: string, leaf: readonly (string | number)[]): unknown {
    return at(this.#design.previous, [section, key, ...leaf]);
  }

  #value(section: string, key: string, leaf: readonly (string | number)[]): unknown {
    const info = this.#keys.get(key);
    const previous = this.#previous(section, key, leaf);
    // A key the layout does not know (another VNF's, a template's own) keeps what it had.
    if (!info) return previous;
    // Tacker v1 BaseHOTs also write the section in lower case (`nfv.vdu.VDU1.zone`).
    if (section === 'VDU' || section === 'vdu') return this.#vduValue(info, leaf, previous);
    if (section === 'CP') return this.#cpValue(info, leaf, previous);
    return previous;
  }

  #vduValue(info: NfvKey, leaf: readonly (string | number)[], previous: unknown): unknown {
    const { flavour } = this.#design;
    const vdu = vduOfNode(flavour, info.node);
    const written = leaf.join('.');
    const name = V1_LEAVES[written] ?? written;
    switch (name) {
      case 'desired_capacity':
        return info.vnfcs.length;
      case 'computeFlavourId': {
        const value =
          oldest(info.vnfcs, (v) => v.flavour) ??
          previous ??
          vdu?.virtualCompute?.requestedAdditionalCapabilityNames[0];
        if (value === undefined) {
          throw hotError(
            this.#design.source.origin,
            `VDU ${info.node} needs a Nova flavour: the grant gives none and the VNFD names none (requested_additional_capability_name).`,
          );
        }
        return value;
      }
      case 'vcImageId': {
        const value =
          oldest(info.vnfcs, (v) => v.images?.[info.node]) ?? previous ?? vnfdImage(flavour, info.node);
        if (value === undefined) {
          throw hotError(
            this.#design.source.origin,
            `${info.node} needs an image: the grant gives none and the VNFD has no software image for it.`,
          );
        }
        return value;
      }
      case 'locationConstraints':
        return oldest(info.vnfcs, (v) => v.zone) ?? previous;
      case 'name': {
        const vnfc = info.vnfcs[0];
        return info.vnfcs.length === 1 && vnfc
          ? serverNameOf(vdu?.name ?? vnfc.vduId, vnfc.id)
          : (previous ?? vdu?.name);
      }
      case 'vnfcId':
        return info.vnfcs.length === 1 ? info.vnfcs[0]?.id : previous;
      default:
        return previous;
    }
  }

  #cpValue(info: NfvKey, leaf: readonly (string | number)[], previous: unknown): unknown {
    const { extVirtualLinks, extManagedVirtualLinks, flavour } = this.#design;
    const siblings = (l: readonly (string | number)[]) =>
      info.siblings.map((k) => this.#previous('CP', k, l)).find((v) => v !== undefined);
    if (leaf[0] === 'network') {
      const cp = flavour.vduCps.find((c) => c.id === info.node);
      return (
        extNetworkOf(extVirtualLinks, info.node) ??
        managedNetworkOf(extManagedVirtualLinks, cp?.virtualLink) ??
        previous ??
        siblings(leaf)
      );
    }
    if (leaf[0] === 'fixed_ips') {
      const fixed = extFixedIpsOf(extVirtualLinks, info.node);
      if (fixed) return leaf.length === 1 ? fixed : at(fixed, leaf.slice(1));
      if (previous !== undefined) return previous;
      // A new VNFC on a link the request does not repeat: its siblings' subnets, never their addresses.
      const shared = siblings(['fixed_ips']);
      const subnets: FixedIp[] = Array.isArray(shared)
        ? shared
            .filter(isMapping)
            .flatMap((f) => (typeof f.subnet === 'string' ? [{ subnet: f.subnet }] : []))
        : [];
      return leaf.length === 1
        ? subnets
        : leaf[leaf.length - 1] === 'subnet'
          ? at(subnets, leaf.slice(1))
          : undefined;
    }
    return previous ?? siblings(leaf);
  }
}
