/**
 * Builds the VNFD model from a loaded package: the entry template's VNF node, one flavour
 * per substitution-mapped template with its VDUs, connectivity, storages, images, levels,
 * scaling, placement and hooks, and the package-level infrastructure files and artifacts.
 * The consistency rules run over every template; any error means no model.
 */
import { additionalArtifacts } from '../csar/artifacts.ts';
import type { CsarInfo } from '../csar/csar-info.ts';
import { type Diagnostic, Diagnostics } from '../diagnostics.ts';
import type { ToscaLoadResult } from '../tosca/model.ts';
import { readExtCps, readVduCps, readVirtualLinks } from './connectivity.ts';
import { discoverFlavours, type FlavourSource } from './flavours.ts';
import { canCarryImage, compareImages, readSoftwareImage } from './images.ts';
import { readBaseHot, readPackageInfraArtifacts } from './infra-artifacts.ts';
import { readLcmOperations } from './lcm-interface.ts';
import { readInstantiationLevels } from './levels.ts';
import { readPlacementGroups, readPlacementRules } from './placement.ts';
import { checkVnfdRules } from './rules.ts';
import { readInitialDeltas, readScalingAspects } from './scaling.ts';
import { scopeOf } from './scope.ts';
import { readStorages } from './storage.ts';
import { readVdus } from './vdus.ts';
import { findVnfNode, readVnfNode } from './vnf-node.ts';
import type { Flavour, SoftwareImage, Vnfd } from './vnfd.ts';

export interface ExtractOptions {
  /**
   * Every file name of the package (PackageFiles.names). Needed to find BaseHOT templates and
   * undeclared Kubernetes manifests; without it only declared artifacts are seen.
   */
  fileNames?: readonly string[];
}

export interface ExtractResult {
  /** Absent when an error was found (in `diagnostics`). */
  vnfd?: Vnfd;
  /** Errors and warnings of the VNFD model (not the loader's or the CSAR reader's). */
  diagnostics: Diagnostic[];
}

function buildFlavour(
  tosca: ToscaLoadResult,
  source: FlavourSource,
  fileNames: readonly string[],
  entryVnfDescription: string | undefined,
): Flavour {
  const { scope, flavourId } = source;
  const softwareImages = Object.values(scope.topology.nodeTemplates)
    .filter((n) => canCarryImage(scope.types, n.type))
    .map((n) => readSoftwareImage(scope.types, n, flavourId))
    .filter((i): i is SoftwareImage => i !== undefined)
    .sort(compareImages);
  const placementGroups = readPlacementGroups(scope);
  return {
    flavourId,
    description: source.description || entryVnfDescription || undefined,
    file: scope.template.file,
    nodeType: source.nodeType,
    externalRequirements: source.externalRequirements,
    vdus: readVdus(scope),
    vduCps: readVduCps(scope),
    virtualLinks: readVirtualLinks(scope),
    extCps: readExtCps(scope, source.externalRequirements),
    storages: readStorages(scope),
    softwareImages,
    instantiationLevels: readInstantiationLevels(scope),
    scalingAspects: readScalingAspects(scope),
    initialDeltas: readInitialDeltas(scope),
    placementGroups,
    placementRules: readPlacementRules(scope, placementGroups),
    lcmOperations: readLcmOperations(
      tosca.types,
      findVnfNode(scope),
      findVnfNode(scopeOf(tosca.entry, tosca.types)),
    ),
    baseHot: readBaseHot(fileNames, flavourId),
  };
}

export function extractVnfd(
  tosca: ToscaLoadResult,
  csar: CsarInfo,
  options: ExtractOptions = {},
): ExtractResult {
  const diags = new Diagnostics();
  const entryScope = scopeOf(tosca.entry, tosca.types);
  const vnf = readVnfNode(entryScope, diags);
  const sources = discoverFlavours(tosca, diags);
  checkVnfdRules(tosca, diags);
  if (!vnf || diags.hasErrors) return { diagnostics: diags.list };

  const declared = csar.artifacts.map((a) => a.path);
  const fileNames =
    options.fileNames ?? [...new Set([...declared, ...tosca.templates.map((t) => t.file)])].sort();
  const flavours = sources.map((s) => buildFlavour(tosca, s, fileNames, vnf.flavourDescription));
  const vnfd: Vnfd = {
    entryDefinitions: tosca.entry.file,
    vnf,
    flavours,
    softwareImages: flavours.flatMap((f) => f.softwareImages).sort(compareImages),
    infraArtifacts: readPackageInfraArtifacts(fileNames, declared),
    additionalArtifacts: additionalArtifacts(csar),
  };
  return { vnfd, diagnostics: diags.list };
}
