/**
 * Software images: one per VDU / storage node carrying a SwImage artifact, per flavour, with
 * the facts VnfPkgInfo.softwareImages exposes (Tacker §3.4): sizes in bytes, provider ""
 * and min_ram 0 when absent, image path with leading `.`/`/` stripped.
 */
import type { ArtifactDefinition, NodeTemplate, TypeRegistry } from '../tosca/model.ts';
import { SOL001 } from './sol001.ts';
import { rec, sizeBytes, str, strList } from './values.ts';
import type { SoftwareImage } from './vnfd.ts';

/**
 * The type the TOSCA loader gives a short-notation artifact (`name: path`); Tacker counts
 * such artifacts as software images.
 */
export const SHORT_NOTATION_ARTIFACT_TYPE = 'tosca.artifacts.File';

/**
 * A SwImage artifact of a node: its type is (or derives from) tosca.artifacts.nfv.SwImage, or
 * the node can carry an image (VDU, storage) and the artifact is untyped / short notation.
 * Short-notation artifacts elsewhere (scripts on the VNF node) are not images.
 */
export function isSwImageArtifact(
  types: TypeRegistry,
  node: NodeTemplate,
  artifact: ArtifactDefinition,
): boolean {
  if (artifact.type && types.isA(artifact.type, SOL001.swImage)) return true;
  const untyped = !artifact.type || artifact.type === SHORT_NOTATION_ARTIFACT_TYPE;
  return untyped && canCarryImage(types, node.type);
}

/** The node's SwImage artifacts, typed ones first (the one an image is read from). */
export function swImageArtifacts(types: TypeRegistry, node: NodeTemplate): ArtifactDefinition[] {
  const all = Object.values(node.artifacts).filter((a) => isSwImageArtifact(types, node, a));
  const typed = all.filter((a) => a.type && types.isA(a.type, SOL001.swImage));
  return [...typed, ...all.filter((a) => !typed.includes(a))];
}

/** Nodes that can carry an image: VDUs and virtual storages. */
export function canCarryImage(types: TypeRegistry, type: string): boolean {
  return [SOL001.vdu, SOL001.blockStorage, SOL001.objectStorage, SOL001.fileStorage].some((t) =>
    types.isA(type, t),
  );
}

/**
 * The image of a node, or undefined when it has no SwImage artifact or no sw_image_data
 * (rules.ts reports those).
 */
export function readSoftwareImage(
  types: TypeRegistry,
  node: NodeTemplate,
  flavourId: string,
): SoftwareImage | undefined {
  const artifact = swImageArtifacts(types, node)[0];
  const data = node.properties.sw_image_data;
  if (!artifact || data === undefined || data === null) return undefined;
  const d = rec(data);
  const checksum = rec(d.checksum);
  return {
    id: node.name,
    flavourId,
    name: str(d.name) ?? '',
    provider: str(d.provider) ?? '',
    version: str(d.version) ?? '',
    checksum: { algorithm: str(checksum.algorithm) ?? '', hash: str(checksum.hash) ?? '' },
    containerFormat: str(d.container_format) ?? '',
    diskFormat: str(d.disk_format) ?? '',
    minDisk: sizeBytes(d.min_disk) ?? 0,
    minRam: sizeBytes(d.min_ram) ?? 0,
    size: sizeBytes(d.size) ?? 0,
    imagePath: artifact.file.replace(/^[./]+/, ''),
    packagePath: artifact.path,
    artifactName: artifact.name,
    operatingSystem: str(d.operating_system),
    supportedVirtualisationEnvironments: strList(d.supported_virtualisation_environments),
  };
}

export function compareImages(a: SoftwareImage, b: SoftwareImage): number {
  if (a.flavourId !== b.flavourId) return a.flavourId < b.flavourId ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
