/**
 * What a package's Heat template may not do, checked before anything reaches Heat: Heat fetches
 * a `type:` given as a URL and reads `get_file` paths itself, so a hostile package could make the
 * cloud fetch any address or read templates it was not shipped with. Only files of the package's
 * BaseHOT folder may be referenced. Resource types that act beyond the VNF's own project
 * (identity, images fetched from a URL, stacks whose inline template escapes these checks) are
 * refused too.
 */
import { hotError } from './hot-error.ts';
import { isMapping } from './hot-yaml.ts';
import { HOT_LIMITS, type HotLimits } from './limits.ts';

/** Resource types refused, with why (a prefix ends with `::`). */
const REFUSED_TYPES: readonly { type: string; why: string }[] = [
  { type: 'OS::Keystone::', why: 'it changes identities, beyond the VNF' },
  { type: 'OS::Glance::WebImage', why: 'it makes the cloud fetch an image from a URL' },
  { type: 'OS::Glance::Image', why: 'it makes the cloud fetch an image from a URL' },
  { type: 'OS::Heat::Stack', why: 'its inline template cannot be checked; use a nested template file' },
];

/** `scheme:` at the start (http:, https:, file:, ftp:…), which Heat would fetch. */
const URL_LIKE = /^[a-z][a-z0-9+.-]*:(?!:)/i;

function checkReference(file: string, what: string, ref: unknown, files: ReadonlySet<string>): void {
  if (typeof ref !== 'string')
    throw hotError(file, `${what} must be a file name, not ${JSON.stringify(ref)}.`);
  if (URL_LIKE.test(ref) || ref.startsWith('/') || ref.split('/').includes('..')) {
    throw hotError(
      file,
      `${what} ${ref} points outside the package: only files of its BaseHOT folder may be used.`,
    );
  }
  if (!files.has(ref)) {
    const known = [...files].sort().join(', ') || 'none';
    throw hotError(file, `${what} ${ref} is not a file of the package's BaseHOT folder (files: ${known}).`);
  }
}

function checkType(file: string, type: unknown, files: ReadonlySet<string>): void {
  if (typeof type !== 'string')
    throw hotError(file, `a resource type must be a string, not ${JSON.stringify(type)}.`);
  if (/^(OS|AWS)::/.test(type)) {
    const refused = REFUSED_TYPES.find((r) =>
      r.type.endsWith('::') ? type.startsWith(r.type) : type === r.type,
    );
    if (refused) throw hotError(file, `resource type ${type} is not allowed: ${refused.why}.`);
    return;
  }
  checkReference(file, 'resource type', type, files);
}

/** The types a resource makes Heat instantiate: its own and its group's member type. */
function memberTypes(res: Record<string, unknown>): unknown[] {
  const props = isMapping(res.properties) ? res.properties : {};
  const types: unknown[] = [res.type];
  // OS::Heat::ResourceGroup's resource_def, OS::Heat::AutoScalingGroup's resource.
  for (const key of ['resource_def', 'resource']) {
    const member = props[key];
    if (isMapping(member) && member.type !== undefined) types.push(member.type);
  }
  // OS::Heat::ResourceChain lists its members' types.
  if (res.type === 'OS::Heat::ResourceChain' && Array.isArray(props.resources))
    types.push(...props.resources);
  return types;
}

/** Checks a parsed template; `files` are the names its `type:` and `get_file` may use. */
export function checkHot(
  file: string,
  template: Record<string, unknown>,
  files: ReadonlySet<string>,
  limits: HotLimits = HOT_LIMITS,
): void {
  const walk = (value: unknown, depth: number): void => {
    if (depth > limits.maxDepth)
      throw hotError(file, `it nests values deeper than ${limits.maxDepth} levels.`);
    if (Array.isArray(value)) {
      for (const v of value) walk(v, depth + 1);
      return;
    }
    if (!isMapping(value)) return;
    for (const [key, v] of Object.entries(value)) {
      if (key === 'get_file') checkReference(file, 'get_file', v, files);
      walk(v, depth + 1);
    }
  };
  walk(template, 0);
  const resources = template.resources ?? {};
  if (!isMapping(resources)) throw hotError(file, 'its resources must be a mapping of resource names.');
  for (const [name, res] of Object.entries(resources)) {
    if (!isMapping(res) || res.type === undefined) throw hotError(file, `resource ${name} has no type.`);
    for (const type of memberTypes(res)) checkType(file, type, files);
  }
}
