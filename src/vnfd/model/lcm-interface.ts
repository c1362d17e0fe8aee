/**
 * Vnflcm interface operations (hooks such as `instantiate_start`, `heal_end`,
 * `scale_rollback_start`) with their implementation artifacts, which the management drivers
 * run around the infra work. The flavour's VNF node is searched first, then the entry's.
 */
import type { NodeTemplate, TypeRegistry } from '../tosca/model.ts';
import { SOL001 } from './sol001.ts';
import type { LcmOperation } from './vnfd.ts';

/** The interface name on the node that is the Vnflcm interface (`Vnflcm` by convention). */
function vnflcmInterfaceName(node: NodeTemplate, types: TypeRegistry): string | undefined {
  if (node.interfaces.Vnflcm) return 'Vnflcm';
  // A differently named interface whose declared type is (derived from) Vnflcm.
  for (const t of types.chain(node.type)) {
    const defs = types.get(t)?.definition.interfaces;
    if (typeof defs !== 'object' || defs === null) continue;
    for (const [name, def] of Object.entries(defs as Record<string, unknown>)) {
      const type = (def as { type?: unknown } | null)?.type;
      if (typeof type === 'string' && types.isA(type, SOL001.vnflcm) && node.interfaces[name]) {
        return name;
      }
    }
  }
  return undefined;
}

function operationsOf(node: NodeTemplate, types: TypeRegistry): LcmOperation[] {
  const name = vnflcmInterfaceName(node, types);
  if (!name) return [];
  return Object.entries(node.interfaces[name] ?? {}).map(([op, def]) => {
    const artifact = def.implementation ? node.artifacts[def.implementation] : undefined;
    return {
      name: op,
      node: node.name,
      implementation: def.implementation,
      artifact: artifact
        ? {
            name: artifact.name,
            type: artifact.type,
            path: artifact.path,
            kind: artifact.hostPath ? ('host-path' as const) : ('package' as const),
          }
        : undefined,
      dependencies: def.dependencies ?? [],
      inputs: def.inputs ?? {},
      loc: def.loc,
    };
  });
}

/** Operations of the flavour VNF node, completed by those of the entry VNF node. */
export function readLcmOperations(
  types: TypeRegistry,
  flavourVnf: NodeTemplate | undefined,
  entryVnf: NodeTemplate | undefined,
): LcmOperation[] {
  const ops = new Map<string, LcmOperation>();
  for (const node of [flavourVnf, entryVnf]) {
    if (!node) continue;
    for (const op of operationsOf(node, types)) if (!ops.has(op.name)) ops.set(op.name, op);
  }
  return [...ops.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
