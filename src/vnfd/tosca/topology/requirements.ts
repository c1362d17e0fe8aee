/**
 * A node template's requirements: each assignment names a requirement its type defines and a
 * node template (or node type) to fulfil it; the count of each is checked against its
 * occurrences.
 */
import type { Location } from '../../diagnostics.ts';
import type { RequirementAssignment } from '../model.ts';
import { isMap } from '../type-registry.ts';
import type { SectionContext } from './context.ts';

const UNBOUNDED = Number.POSITIVE_INFINITY;

export function buildRequirements(
  name: string,
  rawNode: Record<string, unknown>,
  typeDef: Record<string, unknown>,
  loc: Location,
  mappedRequirements: ReadonlySet<string>,
  ctx: SectionContext,
): RequirementAssignment[] {
  const defs = requirementDefinitions(typeDef);
  const out: RequirementAssignment[] = [];
  const list = rawNode.requirements;
  if (list !== undefined && list !== null && !Array.isArray(list)) {
    ctx.diags.error(
      'TOSCA_SYNTAX',
      `requirements of node template ${name} must be a list`,
      ctx.at(rawNode, 'requirements', loc),
    );
  }
  for (const [i, entry] of (Array.isArray(list) ? list : []).entries()) {
    const assignment = requirementAssignment(name, i, entry, ctx.at(list, i, loc), defs, ctx);
    if (assignment) out.push(assignment);
  }
  checkOccurrences(name, defs, out, loc, mappedRequirements, ctx);
  return out;
}

/** Requirement name → definition, from the type's list of one-key maps (a bare value is the capability). */
function requirementDefinitions(typeDef: Record<string, unknown>): Map<string, Record<string, unknown>> {
  const defs = new Map<string, Record<string, unknown>>();
  for (const entry of Array.isArray(typeDef.requirements) ? typeDef.requirements : []) {
    if (!isMap(entry)) continue;
    for (const [r, d] of Object.entries(entry)) defs.set(r, isMap(d) ? d : { capability: d });
  }
  return defs;
}

/** Entry `i` of the requirements list, written at `eloc`; undefined when it cannot be used. */
function requirementAssignment(
  name: string,
  i: number,
  entry: unknown,
  eloc: Location,
  defs: Map<string, Record<string, unknown>>,
  ctx: SectionContext,
): RequirementAssignment | undefined {
  if (!isMap(entry) || Object.keys(entry).length !== 1) {
    ctx.diags.error(
      'TOSCA_SYNTAX',
      `requirement ${i + 1} of node template ${name} must be a map with one key`,
      eloc,
    );
    return undefined;
  }
  const [r, value] = Object.entries(entry)[0];
  if (!defs.has(r)) {
    ctx.diags.error(
      'TOSCA_UNKNOWN_REQUIREMENT',
      `node template ${name} has no requirement ${r} (its type defines: ${[...defs.keys()].join(', ') || 'none'})`,
      ctx.keyAt(entry, r, eloc),
    );
    return undefined;
  }
  const assignment: RequirementAssignment = { name: r, loc: ctx.keyAt(entry, r, eloc) };
  if (typeof value === 'string') assignment.node = value;
  else if (isMap(value)) {
    if (typeof value.node === 'string') assignment.node = value.node;
    if (typeof value.capability === 'string') assignment.capability = value.capability;
    const rel = value.relationship;
    if (typeof rel === 'string') assignment.relationship = rel;
    else if (isMap(rel) && typeof rel.type === 'string') assignment.relationship = rel.type;
  } else if (value !== null) {
    ctx.diags.error(
      'TOSCA_SYNTAX',
      `requirement ${r} of node template ${name} must name a node or be a map`,
      ctx.at(entry, r, eloc),
    );
    return undefined;
  }
  if (
    assignment.node !== undefined &&
    !ctx.nodeNames.has(assignment.node) &&
    !ctx.registry.lookup(assignment.node, 'node')
  ) {
    ctx.diags.error(
      'TOSCA_UNKNOWN_NODE',
      `requirement ${r} of node template ${name} targets ${assignment.node}, which is neither a node template of this topology nor a node type`,
      isMap(value) ? ctx.at(value, 'node', assignment.loc) : ctx.at(entry, r, eloc),
    );
  }
  return assignment;
}

function checkOccurrences(
  name: string,
  defs: Map<string, Record<string, unknown>>,
  assigned: RequirementAssignment[],
  loc: Location,
  mappedRequirements: ReadonlySet<string>,
  ctx: SectionContext,
): void {
  for (const [r, d] of defs) {
    const [min, max] = occurrences(d.occurrences);
    const count = assigned.filter((a) => a.name === r).length;
    // A requirement mapped to the substituted node is fulfilled by whoever uses it.
    const mapped = mappedRequirements.has(`${name}\u0000${r}`) ? 1 : 0;
    if (count > max) {
      ctx.diags.error(
        'TOSCA_OCCURRENCES',
        `node template ${name} assigns requirement ${r} ${count} times; its type allows at most ${max}`,
        assigned.filter((a) => a.name === r)[max]?.loc ?? loc,
      );
    } else if (count + mapped < min) {
      ctx.diags.warning(
        'TOSCA_OCCURRENCES',
        `node template ${name} assigns requirement ${r} ${count} time(s); its type expects at least ${min} (it must be fulfilled at deployment)`,
        loc,
      );
    }
  }
}

function occurrences(v: unknown): [number, number] {
  if (Array.isArray(v) && v.length === 2) {
    const min = typeof v[0] === 'number' ? v[0] : 1;
    const max = v[1] === 'UNBOUNDED' ? UNBOUNDED : typeof v[1] === 'number' ? v[1] : 1;
    return [min, max];
  }
  return [1, 1];
}
