/**
 * A resource read from Bosun for a page: loading, the answer or its problem, and reload. A
 * newer load (the path changed, reload) wins over an older one still in flight.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type ApiResponse, api } from '../api/client.ts';
import { type ApiProblem, asProblem } from '../api/problem.ts';

export interface Loaded<T> {
  data: T | undefined;
  etag: string | undefined;
  error: ApiProblem | undefined;
  loading: boolean;
  reload: () => Promise<void>;
}

export function useApi<T>(path: string | undefined): Loaded<T> {
  const [answer, setAnswer] = useState<ApiResponse<T> | undefined>();
  const [error, setError] = useState<ApiProblem | undefined>();
  const [loading, setLoading] = useState(path !== undefined);
  const generation = useRef(0);
  const load = useCallback(async () => {
    if (path === undefined) return;
    const mine = ++generation.current;
    setLoading(true);
    try {
      const res = await api<T>(path);
      if (mine !== generation.current) return;
      setAnswer(res);
      setError(undefined);
    } catch (err) {
      if (mine === generation.current) setError(asProblem(err));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [path]);
  useEffect(() => {
    setAnswer(undefined);
    void load();
  }, [load]);
  return {
    data: answer?.body,
    etag: answer?.headers.get('ETag') ?? undefined,
    error,
    loading,
    reload: load,
  };
}

/** Calls `tick` every `ms` while `active`, for a resource that is still changing. */
export function usePolling(active: boolean, ms: number, tick: () => void): void {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(tick, ms);
    return () => clearInterval(timer);
  }, [active, ms, tick]);
}
