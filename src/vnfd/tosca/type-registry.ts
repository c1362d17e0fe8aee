/**
 * All types visible to a package: the TOSCA normative types plus every `*_types` section of every
 * loaded file, resolved through `derived_from`. A derived type's properties and definitions
 * override its parent's entry by entry (requirements by name), so a type's `properties` and
 * `definition` are complete. Unknown parents, derivation cycles and references to unknown types
 * are reported; the broken type is still registered so that loading goes on.
 */
import { ownValue, setOwn } from '../../own-properties.ts';
import type { Diagnostics, Location } from '../diagnostics.ts';
import { article } from './article.ts';
import type { PropertyDefinition, ToscaType, TypeRegistry } from './model.ts';
import { PRIMITIVE_TYPES } from './normative-types.ts';
import { keyLoc, locOf, valueLoc } from './yaml-source.ts';

export type TypeKind = ToscaType['kind'];

/** Section of a service template → kind of the types it defines. */
export const TYPE_SECTIONS: Record<string, TypeKind> = {
  node_types: 'node',
  data_types: 'data',
  capability_types: 'capability',
  relationship_types: 'relationship',
  artifact_types: 'artifact',
  interface_types: 'interface',
  group_types: 'group',
  policy_types: 'policy',
};

const SHORT_PREFIX: Record<TypeKind, string> = {
  node: 'tosca.nodes.',
  data: 'tosca.datatypes.',
  capability: 'tosca.capabilities.',
  relationship: 'tosca.relationships.',
  artifact: 'tosca.artifacts.',
  interface: 'tosca.interfaces.',
  group: 'tosca.groups.',
  policy: 'tosca.policies.',
};

interface RawType {
  kind: TypeKind;
  name: string;
  raw: Record<string, unknown>;
  loc: Location;
}

export class Registry implements TypeRegistry {
  private readonly raws = new Map<string, RawType>();
  private readonly resolved = new Map<string, ToscaType>();

  /** Adds the type sections of one file. */
  addFile(doc: Record<string, unknown>, file: string, diags: Diagnostics): void {
    for (const [section, kind] of Object.entries(TYPE_SECTIONS)) {
      const defs = doc[section];
      if (defs === undefined || defs === null) continue;
      if (!isMap(defs)) {
        diags.error(
          'TOSCA_SYNTAX',
          `${section} must be a map of type definitions`,
          valueLoc(doc, section) ?? { file },
        );
        continue;
      }
      for (const [name, raw] of Object.entries(defs)) {
        const loc = keyLoc(defs, name) ?? { file };
        const def = raw === null ? {} : raw;
        if (!isMap(def)) {
          diags.error('TOSCA_SYNTAX', `${kind} type ${name} must be a map`, loc);
          continue;
        }
        const existing = this.raws.get(name);
        if (existing) {
          // The same SOL001 file shipped twice (or bundled and shipped) is harmless.
          if (existing.kind !== kind || fingerprint(existing.raw) !== fingerprint(def)) {
            diags.warning(
              'TOSCA_DUPLICATE_TYPE',
              `${kind} type ${name} is defined again (first definition at ${where(existing.loc)}); the first one is used`,
              loc,
            );
          }
          continue;
        }
        this.raws.set(name, { kind, name, raw: def, loc });
      }
    }
  }

  /** Resolves inheritance of every type, reporting what is wrong. Call once after all files. */
  resolveAll(diags: Diagnostics): void {
    for (const name of this.raws.keys()) this.resolve(name, diags, []);
    for (const t of this.raws.values()) this.checkReferences(t, diags);
  }

  get(name: string): ToscaType | undefined {
    return this.resolved.get(name);
  }

  /** Full name of `name` used where a type of `kind` is expected (accepting TOSCA short names). */
  lookup(name: string, kind: TypeKind): ToscaType | undefined {
    const direct = this.resolved.get(name);
    if (direct) return direct;
    const short = name.startsWith('tosca:') ? name.slice(6) : name;
    const full = this.resolved.get(SHORT_PREFIX[kind] + short);
    return full?.kind === kind ? full : undefined;
  }

  isA(type: string, ancestor: string): boolean {
    return this.chain(type).includes(ancestor);
  }

  chain(type: string): string[] {
    const out: string[] = [];
    let current: string | undefined = type;
    while (current !== undefined && !out.includes(current)) {
      out.push(current);
      const resolved = this.resolved.get(current);
      const next: unknown = resolved ? resolved.derivedFrom : this.raws.get(current)?.raw.derived_from;
      current = typeof next === 'string' ? next : undefined;
    }
    return out;
  }

  get names(): string[] {
    return [...this.resolved.keys()];
  }

  private resolve(name: string, diags: Diagnostics, stack: string[]): ToscaType | undefined {
    const done = this.resolved.get(name);
    if (done) return done;
    const t = this.raws.get(name);
    if (!t) return undefined;
    if (stack.includes(name)) {
      diags.error(
        'TOSCA_DERIVATION_CYCLE',
        `${t.kind} type ${name} derives from itself: ${[...stack.slice(stack.indexOf(name)), name].join(' → ')}`,
        t.loc,
      );
      return undefined;
    }
    let parent: ToscaType | undefined;
    let derivedFrom: string | undefined;
    const parentName = t.raw.derived_from;
    if (parentName !== undefined && parentName !== null) {
      const at = valueLoc(t.raw, 'derived_from') ?? t.loc;
      if (typeof parentName !== 'string') {
        diags.error('TOSCA_SYNTAX', `derived_from of ${t.kind} type ${name} must be a type name`, at);
      } else if (t.kind === 'data' && PRIMITIVE_TYPES.has(parentName)) {
        derivedFrom = parentName;
      } else {
        const full = this.raws.has(parentName) ? parentName : this.shortToFull(parentName, t.kind);
        if (!full) {
          diags.error(
            'TOSCA_UNKNOWN_TYPE',
            `${t.kind} type ${name} derives from ${parentName}, which is not defined (missing import?)`,
            at,
          );
        } else {
          derivedFrom = full;
          parent = this.resolve(full, diags, [...stack, name]);
          const parentKind = this.raws.get(full)?.kind;
          if (t.kind === 'node' && parentKind === 'data') {
            // tosca-parser keeps all type sections in one table, so Tacker uses it as a data type.
            diags.tolerated(
              'TOSCA_DATA_TYPE_IN_NODE_TYPES',
              `node type ${name} derives from ${full}, which is a data type: it is used as a data type; declare it under data_types`,
              at,
            );
            t.kind = 'data';
          } else if (parentKind !== t.kind) {
            diags.error(
              'TOSCA_TYPE_KIND',
              `${t.kind} type ${name} derives from ${full}, which is ${article(parentKind ?? '')} ${parentKind} type`,
              at,
            );
            parent = undefined;
          }
        }
      }
    }
    const properties: Record<string, PropertyDefinition> = { ...(parent?.properties ?? {}) };
    const ownProps = t.raw.properties;
    if (isMap(ownProps)) {
      for (const [p, def] of Object.entries(ownProps)) {
        setOwn(properties, p, propertyDefinition(def, ownValue(properties, p)));
      }
    }
    const definition = mergeDefinition(parent?.definition ?? {}, t.raw);
    const type: ToscaType = { kind: t.kind, name, derivedFrom, properties, definition, loc: t.loc };
    this.resolved.set(name, type);
    return type;
  }

  private shortToFull(name: string, kind: TypeKind): string | undefined {
    const short = name.startsWith('tosca:') ? name.slice(6) : name;
    const full = SHORT_PREFIX[kind] + short;
    return this.raws.has(full) ? full : undefined;
  }

  /** Property, capability, requirement and interface definitions must name known types. */
  private checkReferences(t: RawType, diags: Diagnostics): void {
    const props = t.raw.properties;
    if (isMap(props)) {
      for (const [p, def] of Object.entries(props)) {
        if (!isMap(def)) continue;
        const what = `property ${p} of ${t.kind} type ${t.name}`;
        this.checkDataType(def.type, what, valueLoc(def, 'type') ?? keyLoc(props, p) ?? t.loc, diags);
        const schema = def.entry_schema;
        if (schema !== undefined) {
          const st = isMap(schema) ? schema.type : schema;
          this.checkDataType(
            st,
            `entry_schema of ${what}`,
            locOf(schema) ?? valueLoc(def, 'entry_schema') ?? t.loc,
            diags,
          );
        }
      }
    }
    const caps = t.raw.capabilities;
    if (isMap(caps)) {
      for (const [c, def] of Object.entries(caps)) {
        const ct = isMap(def) ? def.type : def;
        if (typeof ct === 'string' && !this.lookup(ct, 'capability')) {
          diags.error(
            'TOSCA_UNKNOWN_TYPE',
            `capability ${c} of ${t.kind} type ${t.name} has type ${ct}, which is not defined`,
            (isMap(def) ? valueLoc(def, 'type') : undefined) ?? keyLoc(caps, c) ?? t.loc,
          );
        }
      }
    }
    const reqs = t.raw.requirements;
    if (Array.isArray(reqs)) {
      for (const entry of reqs) {
        if (!isMap(entry)) continue;
        for (const [r, def] of Object.entries(entry)) {
          const ct = isMap(def) ? def.capability : def;
          if (typeof ct === 'string' && !this.lookup(ct, 'capability')) {
            diags.error(
              'TOSCA_UNKNOWN_TYPE',
              `requirement ${r} of ${t.kind} type ${t.name} needs capability type ${ct}, which is not defined`,
              (isMap(def) ? valueLoc(def, 'capability') : undefined) ?? keyLoc(entry, r) ?? t.loc,
            );
          }
        }
      }
    }
    const ifaces = t.raw.interfaces;
    if (isMap(ifaces) && t.kind !== 'interface') {
      for (const [i, def] of Object.entries(ifaces)) {
        const it = isMap(def) ? def.type : undefined;
        if (typeof it === 'string' && !this.lookup(it, 'interface')) {
          diags.error(
            'TOSCA_UNKNOWN_TYPE',
            `interface ${i} of ${t.kind} type ${t.name} has type ${it}, which is not defined`,
            (isMap(def) ? valueLoc(def, 'type') : undefined) ?? keyLoc(ifaces, i) ?? t.loc,
          );
        }
      }
    }
  }

  private checkDataType(type: unknown, what: string, loc: Location, diags: Diagnostics): void {
    if (type === undefined) return;
    if (typeof type !== 'string') {
      diags.error('TOSCA_SYNTAX', `${what}: type must be a type name`, loc);
      return;
    }
    if (PRIMITIVE_TYPES.has(type)) return;
    const t = this.lookup(type, 'data');
    if (!t) {
      diags.error(
        'TOSCA_UNKNOWN_TYPE',
        `${what} has type ${type}, which is not defined (missing import?)`,
        loc,
      );
    } else if (t.kind !== 'data') {
      diags.error(
        'TOSCA_TYPE_KIND',
        `${what} has type ${type}, which is ${article(t.kind)} ${t.kind} type, not a data type`,
        loc,
      );
    }
  }
}

/** A property definition, refining the inherited one (absent keys keep the parent's). */
export function propertyDefinition(raw: unknown, parent?: PropertyDefinition): PropertyDefinition {
  const def = isMap(raw) ? raw : {};
  const out: PropertyDefinition = {
    type: typeof def.type === 'string' ? def.type : (parent?.type ?? 'string'),
    required: typeof def.required === 'boolean' ? def.required : (parent?.required ?? true),
  };
  if ('default' in def) out.default = def.default;
  else if (parent && 'default' in parent) out.default = parent.default;
  const schema = def.entry_schema ?? parent?.entrySchema;
  if (schema !== undefined) {
    if (isMap(schema)) {
      out.entrySchema = {
        type: typeof schema.type === 'string' ? schema.type : 'string',
        ...(Array.isArray(schema.constraints) ? { constraints: schema.constraints } : {}),
      };
    } else if (typeof schema === 'string') out.entrySchema = { type: schema };
    else out.entrySchema = parent?.entrySchema;
  }
  const constraints = Array.isArray(def.constraints) ? def.constraints : parent?.constraints;
  if (constraints) out.constraints = constraints;
  const description = typeof def.description === 'string' ? def.description : parent?.description;
  if (description !== undefined) out.description = description;
  return out;
}

/** Merges a derived type's raw definition over its parent's. */
function mergeDefinition(
  base: Record<string, unknown>,
  own: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(own)) {
    if (k === 'derived_from') continue;
    const b = ownValue(base, k);
    if (k === 'requirements' && Array.isArray(v) && Array.isArray(b)) {
      const names = new Set(v.flatMap((e) => (isMap(e) ? Object.keys(e) : [])));
      setOwn(out, k, [...b.filter((e) => !(isMap(e) && Object.keys(e).some((n) => names.has(n)))), ...v]);
    } else if (
      (k === 'capabilities' ||
        k === 'interfaces' ||
        k === 'artifacts' ||
        k === 'attributes' ||
        k === 'properties') &&
      isMap(v) &&
      isMap(b)
    ) {
      const merged: Record<string, unknown> = { ...b };
      for (const [name, d] of Object.entries(v)) {
        const prev = ownValue(b, name);
        setOwn(merged, name, k === 'interfaces' && isMap(prev) && isMap(d) ? { ...prev, ...d } : d);
      }
      setOwn(out, k, merged);
    } else {
      setOwn(out, k, v);
    }
  }
  return out;
}

export function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function fingerprint(raw: unknown): string {
  return JSON.stringify(raw, (k, v) => (k === 'description' ? undefined : v));
}

function where(loc: Location): string {
  return `${loc.file}${loc.line ? `:${loc.line}` : ''}`;
}
