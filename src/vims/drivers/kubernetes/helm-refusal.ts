/**
 * Helm charts (`helm_chart_path`, `helm_parameters`, Tacker's Helm requests) are not deployed by
 * this driver yet: a request naming one is refused before anything is applied, saying whether
 * the host has the helm binary (kubernetes.helmPath) at all, so the operator knows what is missing.
 */
import { execFile } from 'node:child_process';
import { InfraError } from '../../contract.ts';

function helmVersion(path: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(path, ['version', '--short'], { timeout: 10_000 }, (error, stdout) =>
      resolve(error ? undefined : stdout.trim()),
    );
  });
}

export async function refuseHelm(
  additionalParams: Record<string, unknown> | undefined,
  helmPath: string,
): Promise<void> {
  const chart = additionalParams?.helm_chart_path;
  if (chart === undefined) return;
  const version = await helmVersion(helmPath);
  throw new InfraError(
    'INVALID_REQUEST',
    version
      ? `additionalParams.helm_chart_path: Helm charts are not deployed by this Bosun yet (helm ${version} is on the host at kubernetes.helmPath ${helmPath}); deploy the chart's rendered manifests with lcm-kubernetes-def-files instead.`
      : `additionalParams.helm_chart_path: Helm charts need the helm binary on the Bosun host, and kubernetes.helmPath ${helmPath} runs none; Helm charts are not deployed by this Bosun yet in any case: deploy the chart's rendered manifests with lcm-kubernetes-def-files instead.`,
    { helmPath },
  );
}
