/**
 * A list of an API resource, one page at a time: the first page from `path`, then the page the
 * server's `Link: rel="next"` names (SOL013 paging). Only the page shown is held, so a list of
 * ten thousand items costs one page; Previous goes back through the pages already visited.
 */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/client.ts';
import { nextPagePath } from '../api/paging.ts';
import { type ApiProblem, asProblem } from '../api/problem.ts';
import { ProblemBox } from './problem-box.tsx';
import { type Column, Table } from './table.tsx';

export type { Column };

export interface PagedListProps<T> {
  /** The list's URL path with its query (filter, fields…), e.g. '/vnflcm/v2/vnf_instances'. */
  path: string;
  columns: Column<T>[];
  rowKey: (item: T) => string;
  /** Names the table for screen readers. */
  caption: string;
  empty: ComponentChildren;
  /** Change it to load the current page again (after an action changed the list). */
  refresh?: number;
  /** Loads the current page again every this many ms (a list whose items are changing). */
  pollMs?: number;
}

export function PagedList<T>(props: PagedListProps<T>) {
  // The pages visited: the last one is shown; each earlier one is where Previous goes.
  const [trail, setTrail] = useState<string[]>([props.path]);
  const [items, setItems] = useState<T[] | undefined>();
  const [next, setNext] = useState<string | undefined>();
  const [error, setError] = useState<ApiProblem | undefined>();
  const generation = useRef(0);
  const current = trail[trail.length - 1];

  useEffect(() => setTrail([props.path]), [props.path]);

  const load = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const res = await api<T[]>(current);
      if (mine !== generation.current) return;
      setItems(res.body);
      setNext(nextPagePath(res.headers.get('Link')));
      setError(undefined);
    } catch (err) {
      if (mine === generation.current) setError(asProblem(err));
    }
  }, [current]);

  useEffect(() => {
    void load();
  }, [load, props.refresh]);

  useEffect(() => {
    if (!props.pollMs) return;
    const timer = setInterval(() => void load(), props.pollMs);
    return () => clearInterval(timer);
  }, [load, props.pollMs]);

  const page = trail.length;
  return (
    <div class="paged-list">
      {error && <ProblemBox error={error} />}
      {items === undefined && !error && <p class="muted">Loading…</p>}
      {items?.length === 0 && page === 1 && <div class="empty">{props.empty}</div>}
      {items && items.length > 0 && (
        <Table caption={props.caption} columns={props.columns} rows={items} rowKey={props.rowKey} />
      )}
      {(page > 1 || next) && (
        <nav class="pager" aria-label={`${props.caption} pages`}>
          <button type="button" disabled={page === 1} onClick={() => setTrail(trail.slice(0, -1))}>
            Previous page
          </button>
          <span>Page {page}</span>
          <button type="button" disabled={!next} onClick={() => next && setTrail([...trail, next])}>
            Next page
          </button>
        </nav>
      )}
    </div>
  );
}
