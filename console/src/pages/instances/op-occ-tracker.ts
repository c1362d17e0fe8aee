/**
 * The operation the page started, followed until it ends: its op occ (from the 202's
 * Location) read every second while it runs; `onEnd` runs once when it reaches a final state.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { type ApiProblem, asProblem } from '../../api/problem.ts';
import { OP_OCCS_PATH, RESTING_STATES, type VnfLcmOpOcc } from '../../api/sol/instances.ts';

const POLL_MS = 1000;

/** The op occ path of a task's 202 Location (kept on this origin). */
export function opOccPathOf(location: string | null): string | undefined {
  if (!location) return undefined;
  const path = new URL(location, window.location.origin).pathname;
  return path.startsWith(`${OP_OCCS_PATH}/`) ? path : undefined;
}

export function useOpOcc(path: string | undefined, onEnd: () => void) {
  const [opOcc, setOpOcc] = useState<VnfLcmOpOcc | undefined>();
  const [error, setError] = useState<ApiProblem | undefined>();
  useEffect(() => {
    setOpOcc(undefined);
    setError(undefined);
    if (!path) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = async () => {
      try {
        const res = await api<VnfLcmOpOcc>(path);
        if (!live) return;
        setOpOcc(res.body);
        if (RESTING_STATES.includes(res.body.operationState)) {
          onEnd();
          return;
        }
      } catch (err) {
        if (!live) return;
        setError(asProblem(err));
      }
      timer = setTimeout(look, POLL_MS);
    };
    void look();
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // Followed per op occ path: onEnd (the page's reload) is a new function each render.
  }, [path]);
  return { opOcc, error };
}
