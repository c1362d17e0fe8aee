/**
 * The templates' entry point: a design (the whole VNF the stack must hold) → what Heat's stack
 * create or update takes. The same path serves a package's BaseHOT and a template generated from
 * the VNFD (generate-hot.ts), so both get Tacker's UserData semantics.
 */
import { orderAffinityMembers } from './affinity-order.ts';
import type { StackBuild, StackDesign } from './design.ts';
import { applyExtManagedVls } from './ext-managed-vls.ts';
import { chooseLayout, layPerVdu, layPerVnfc } from './layout.ts';
import { nfvPaths } from './nfv-paths.ts';
import { NfvFiller } from './nfv-values.ts';

export function buildStack(design: StackDesign): StackBuild {
  const layout = chooseLayout(design);
  const laid = layout === 'per-vnfc' ? layPerVnfc(design) : layPerVdu(design);
  const template = applyExtManagedVls(laid.template, design.extManagedVirtualLinks);
  orderAffinityMembers(template);
  const nfv = new NfvFiller(design, laid.keys).fill(nfvPaths(template));
  return {
    template,
    files: { ...design.source.files },
    parameters: { nfv },
    layout,
    resources: laid.resources,
  };
}
