/**
 * A Helm instance's release on the cluster, through the helm binary: installed or upgraded with
 * the package's chart (a retry finds the release it made: install when there is none, upgrade
 * when one is deployed, and a failed first install uninstalled and installed again), rolled back
 * to a revision, uninstalled; its revision and rendered manifest read back.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Vnfd } from '../../../../vnfd/model/vnfd.ts';
import { InfraError } from '../../../contract.ts';
import type { KubernetesDeps } from '../deps.ts';
import { readPackageFiles } from '../manifests/package-texts.ts';
import { type Helm, helmTimeout } from './run.ts';

interface Revision {
  revision: number;
  status: string;
}

const notFound = (e: unknown) => e instanceof InfraError && /release: not found/.test(e.message);

export async function history(helm: Helm, release: string): Promise<Revision[]> {
  try {
    const rows = JSON.parse(await helm(['history', release, '--max', '256', '-o', 'json'])) as unknown;
    if (!Array.isArray(rows)) return [];
    return rows
      .map((r) => ({ revision: Number(r?.revision), status: String(r?.status) }))
      .filter((r) => Number.isInteger(r.revision));
  } catch (error) {
    if (notFound(error)) return [];
    throw error;
  }
}

/** The revision deployed now. */
export async function deployedRevision(helm: Helm, release: string): Promise<number> {
  const deployed = (await history(helm, release)).filter((r) => r.status === 'deployed').at(-1);
  if (!deployed)
    throw new InfraError('VIM_OPERATION_FAILED', `Helm release ${release} has no deployed revision.`);
  return deployed.revision;
}

/** Writes the package's chart into the call's folder; its path. */
export async function chartFile(
  deps: KubernetesDeps,
  packageId: string | undefined,
  vnfd: Vnfd,
  path: string,
  dir: string,
): Promise<string> {
  const bytes = await readPackageFiles(deps, packageId, vnfd, [path], 'additionalParams.helm_chart_path');
  const file = join(dir, 'chart.tgz');
  await writeFile(file, bytes.get(path) as Buffer, { mode: 0o600 });
  return file;
}

export interface Install {
  release: string;
  chart: string;
  sets: string[];
  /** Keep the release's values, only `sets` change (scale, heal). */
  reuseValues?: boolean;
}

/** Installs the release, or upgrades it when it is deployed. */
export async function installOrUpgrade(helm: Helm, deps: KubernetesDeps, i: Install): Promise<void> {
  const wait = ['--wait', '--timeout', helmTimeout(deps.config)];
  const revisions = await history(helm, i.release);
  if (revisions.some((r) => r.status === 'deployed')) {
    await helm([
      'upgrade',
      i.release,
      i.chart,
      ...(i.reuseValues ? ['--reuse-values'] : []),
      ...i.sets,
      ...wait,
    ]);
    return;
  }
  // A first install that failed (a retry): nothing of it is kept.
  if (revisions.length) await uninstall(helm, i.release, false);
  await helm(['install', i.release, i.chart, ...i.sets, ...wait]);
}

export async function uninstall(helm: Helm, release: string, wait = true): Promise<void> {
  try {
    await helm(['uninstall', release, ...(wait ? ['--wait'] : [])]);
  } catch (error) {
    if (!notFound(error)) throw error;
  }
}

export const rollbackTo = (helm: Helm, deps: KubernetesDeps, release: string, revision: number) =>
  helm(['rollback', release, String(revision), '--wait', '--timeout', helmTimeout(deps.config)]);

export const manifestOf = (helm: Helm, release: string) => helm(['get', 'manifest', release]);
