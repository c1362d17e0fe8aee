/**
 * Reads a flavour's BaseHOT from the package as Tacker finds it: the first YAML file directly in
 * `BaseHOT/<flavourId>/` is the top template, every file under `nested/` is given to Heat by its
 * path below `nested/` (the name the top template's `type:` uses). Everything is bounded and
 * checked (hot-safety.ts) before Heat sees it.
 */
import type { PackageFiles } from '../../../../vnfd/csar/package-files.ts';
import type { Flavour } from '../../../../vnfd/model/vnfd.ts';
import type { HotSource } from './design.ts';
import { hotError } from './hot-error.ts';
import { checkHot } from './hot-safety.ts';
import { isMapping, parseHot, parseYaml } from './hot-yaml.ts';
import { HOT_LIMITS, type HotLimits } from './limits.ts';

const YAML = /\.ya?ml$/i;

/** The flavour's BaseHOT, or undefined when the package has none for it. */
export async function readBaseHot(
  files: PackageFiles,
  flavour: Flavour,
  limits: HotLimits = HOT_LIMITS,
): Promise<HotSource | undefined> {
  const { main, nested } = flavour.baseHot;
  if (!main) return undefined;
  const all = [main, ...nested];
  if (all.length > limits.maxFiles) {
    throw hotError(
      main,
      `BaseHOT/${flavour.flavourId}/ holds ${all.length} files; at most ${limits.maxFiles} are allowed.`,
    );
  }
  let total = 0;
  for (const path of all) {
    if (!files.has(path))
      throw hotError(path, 'the file is listed in the VNFD model but missing from the package.');
    const size = files.size(path);
    if (size > limits.maxFileBytes) {
      throw hotError(path, `it is ${size} bytes; a template file may have at most ${limits.maxFileBytes}.`);
    }
    total += size;
  }
  if (total > limits.maxTotalBytes) {
    throw hotError(
      main,
      `BaseHOT/${flavour.flavourId}/ holds ${total} bytes; at most ${limits.maxTotalBytes} are allowed.`,
    );
  }
  const prefix = `BaseHOT/${flavour.flavourId}/nested/`;
  const texts: Record<string, string> = {};
  for (const path of nested) texts[path.slice(prefix.length)] = await files.readText(path);
  const names = new Set(Object.keys(texts));
  const template = parseHot(await files.readText(main), main, limits);
  checkHot(main, template, names, limits);
  for (const [name, text] of Object.entries(texts)) {
    if (!YAML.test(name)) continue;
    // A nested YAML file is a template, or data another template reads with get_file.
    const doc = parseYaml(text, prefix + name, limits);
    if (isMapping(doc) && doc.heat_template_version !== undefined)
      checkHot(prefix + name, doc, names, limits);
  }
  return { origin: main, template, files: texts };
}
