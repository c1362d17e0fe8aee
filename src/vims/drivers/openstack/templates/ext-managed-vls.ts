/**
 * Internal VLs the NFVO manages (extManagedVirtualLinks) are not created by the stack: as
 * Tacker does, the VL's own resources (its OS::Neutron::Net and the subnets on it) leave the top
 * template, with the dependencies on them, and every `get_resource: <VL>` becomes the network
 * the NFVO gave.
 */
import { isMapping } from './hot-yaml.ts';

function replace(value: unknown, networks: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => replace(v, networks));
  if (!isMapping(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'get_resource' && typeof value.get_resource === 'string') {
    const network = networks.get(value.get_resource);
    if (network) return network;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(v, networks)]));
}

const isOn = (res: unknown, vl: string): boolean =>
  isMapping(res) &&
  res.type === 'OS::Neutron::Subnet' &&
  isMapping(res.properties) &&
  isMapping(res.properties.network) &&
  res.properties.network.get_resource === vl;

export function applyExtManagedVls(
  template: Record<string, unknown>,
  links: readonly Record<string, unknown>[],
): Record<string, unknown> {
  const networks = new Map<string, string>();
  for (const l of links) {
    if (typeof l.vnfVirtualLinkDescId === 'string' && typeof l.resourceId === 'string') {
      networks.set(l.vnfVirtualLinkDescId, l.resourceId);
    }
  }
  if (!networks.size || !isMapping(template.resources)) return template;
  const kept = Object.entries(template.resources).filter(
    ([name, res]) => !networks.has(name) && ![...networks.keys()].some((vl) => isOn(res, vl)),
  );
  const names = new Set(kept.map(([name]) => name));
  // A dependency on a removed resource (a VDU on the VL's subnet) goes with it.
  const resources = kept.map(([name, res]): [string, unknown] => {
    if (!isMapping(res) || res.depends_on === undefined) return [name, res];
    const on = (Array.isArray(res.depends_on) ? res.depends_on : [res.depends_on]).filter((d) =>
      names.has(String(d)),
    );
    const { depends_on: _dropped, ...rest } = res;
    return [name, on.length ? { ...rest, depends_on: on } : rest];
  });
  return { ...template, resources: replace(Object.fromEntries(resources), networks) };
}
