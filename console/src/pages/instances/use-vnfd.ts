/**
 * The VNFD model of an instance's package, found by the instance's vnfdId among the onboarded
 * packages the caller may read. The forms work from it; without it (no package read scope)
 * they fall back to what the instance itself says.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { type ApiProblem, asProblem } from '../../api/problem.ts';
import { PACKAGES_PATH, type VnfPkgInfo } from '../../api/sol/packages.ts';
import { type VnfdModel, vnfdModelPath } from '../../api/sol/vnfd-model.ts';

export interface VnfdOf {
  model?: VnfdModel;
  pkgId?: string;
  error?: ApiProblem;
  /** Still being read: the forms wait for it rather than start without the VNFD's choices. */
  loading?: boolean;
}

export function packagesOfVnfd(vnfdId: string): string {
  const filter = `(eq,vnfdId,${vnfdId});(eq,onboardingState,ONBOARDED)`;
  return `${PACKAGES_PATH}?filter=${encodeURIComponent(filter)}&fields=vnfdId`;
}

export function useVnfd(vnfdId: string | undefined): VnfdOf {
  const [state, setState] = useState<VnfdOf>({});
  useEffect(() => {
    if (!vnfdId) return;
    let live = true;
    (async () => {
      try {
        const found = await api<VnfPkgInfo[]>(packagesOfVnfd(vnfdId));
        const pkg = found.body[0];
        if (!pkg) throw new Error(`No onboarded VNF package you may read has vnfdId ${vnfdId}.`);
        const model = await api<VnfdModel>(vnfdModelPath(pkg.id));
        if (live) setState({ model: model.body, pkgId: pkg.id });
      } catch (err) {
        if (live) setState({ error: asProblem(err) });
      }
    })();
    return () => {
      live = false;
    };
  }, [vnfdId]);
  return { ...state, loading: vnfdId !== undefined && !state.model && !state.error };
}
