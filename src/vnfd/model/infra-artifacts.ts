/**
 * Infrastructure files: BaseHOT Heat templates per flavour (`BaseHOT/<flavourId>/` with
 * `nested/`, Tacker's OpenStack layout), Kubernetes manifests, Helm charts and Terraform
 * files. Found by the package layout Tacker's drivers use, from the package's file names.
 */
import type { BaseHot, PackageInfraArtifacts } from './vnfd.ts';

const YAML = /\.ya?ml$/i;

export function readBaseHot(fileNames: readonly string[], flavourId: string): BaseHot {
  const folder = `BaseHOT/${flavourId}/`;
  const inFolder = fileNames.filter((f) => f.startsWith(folder)).sort();
  // Tacker takes the first YAML directly in the folder as the top template.
  const main = inFolder.find((f) => !f.slice(folder.length).includes('/') && YAML.test(f));
  const nested = inFolder.filter((f) => f.startsWith(`${folder}nested/`));
  return { main, nested };
}

/**
 * Kubernetes manifests are the YAML files under `Files/kubernetes/`, plus declared (hashed)
 * YAML artifacts under `Files/` — Tacker's CNF samples keep manifests in either place and let
 * `lcm-kubernetes-def-files` pick among declared ones — minus unpacked Helm chart sources.
 */
export function readPackageInfraArtifacts(
  fileNames: readonly string[],
  declared: readonly string[],
): PackageInfraArtifacts {
  const all = [...new Set([...fileNames, ...declared])].sort();
  // A folder holding Chart.yaml is a chart's source: its YAML files are templates, not manifests.
  const chartDirs = all
    .filter((f) => /(^|\/)Chart\.ya?ml$/.test(f))
    .map((f) => f.slice(0, f.lastIndexOf('/') + 1));
  const isManifest = (f: string, wasDeclared: boolean): boolean =>
    YAML.test(f) &&
    (f.startsWith('Files/kubernetes/') || (wasDeclared && f.startsWith('Files/'))) &&
    !chartDirs.some((d) => f.startsWith(d));
  const manifests = new Set([
    ...fileNames.filter((f) => isManifest(f, false)),
    ...declared.filter((f) => isManifest(f, true)),
  ]);
  return {
    kubernetesManifests: [...manifests].sort(),
    helmCharts: all.filter((f) => /\.tgz$/i.test(f)),
    terraformFiles: all.filter((f) => /\.tf$/i.test(f)),
  };
}
